#!/usr/bin/env python3
"""Read the KTAP files and kernel logs that a guest run left behind.

  report.py summary RESULTS_DIR...     print per-suite and total counts,
                                       scan the kernel logs, exit 1 on any
                                       failure or kernel splat
  report.py cases KTAP                 print "STATUS<TAB>name" per case
  report.py diff BASE.tsv NEW.tsv      case-by-case regressions
  report.py scan LOG...                print kernel splat lines, exit 1 if any
"""
import os
import re
import sys

RESULT_RE = re.compile(r'^(not ok|ok) (\d+)\s*(.*?)\s*(?:#\s*(\w+).*)?$')
PLAN_RE = re.compile(r'^1\.\.(\d+)')

# Lines in a kernel log that mean the kernel itself went wrong.
SPLAT_RE = re.compile(
    r'(------------\[ cut here \]------------'
    r'|WARNING: CPU: \d+ PID: \d+ at '
    r'|WARNING: .* at .*\+0x'
    r'|\bBUG: '
    r'|kernel BUG at '
    r'|\bOops: '
    r'|general protection fault'
    r'|Kernel panic - not syncing'
    r'|possible recursive locking detected'
    r'|possible circular locking dependency detected'
    r'|inconsistent lock state'
    r'|suspicious RCU usage'
    r'|INFO: lockdep is turned off'
    r'|INFO: task .* blocked for more than'
    r'|rcu: INFO: .* detected stalls?'
    r'|watchdog: BUG: soft lockup'
    r'|UBSAN: '
    r'|KASAN: '
    r'|kmemleak: \d+ new suspected memory leaks'
    r'|unreferenced object 0x'
    r'|Tainted: .*[DW]'
    r'|FAILED!'
    r')')


# Lines that SPLAT_RE matches but that are known, analysed, and not a
# fault of the series; reported as "known", not counted. Each with why.
KNOWN_RE = re.compile(
    # x86 ORC, 6.12: an interrupt that lands in return_to_handler's
    # retpoline tail (after "call .Ldo_rop", before its "mov %rdi,(%rsp)")
    # is unwound with the ORC state of the int3 after that call, whose sp
    # offset is 0; a stack trace taken in that interrupt (the wakeup
    # tracers, stacktrace triggers) logs this once. No WARN(), no taint.
    r'WARNING: stack going in the wrong direction\? at return_to_handler\+0x46/'
)


def parse_ktap(path):
    """Return (plan, [(status, name)]) for the top-level results of a KTAP file.

    status is one of PASS, FAIL, SKIP, XFAIL, UNRESOLVED.
    """
    plan = None
    cases = []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = PLAN_RE.match(line)
            if m and plan is None:
                plan = int(m.group(1))
                continue
            m = RESULT_RE.match(line)
            if not m:
                continue
            ok, _num, name, directive = m.groups()
            directive = (directive or '').upper()
            if ok == 'ok':
                status = {'SKIP': 'SKIP', 'XFAIL': 'XFAIL'}.get(directive, 'PASS')
            else:
                status = 'UNRESOLVED' if directive in ('UNRESOLVED', 'ERROR') else 'FAIL'
            cases.append((status, name.strip()))
    return plan, cases


def running_case(path):
    """The case a KTAP file says was running when it ended: its last
    "# running NAME" line, if no result line follows it."""
    running = None
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith('# running '):
                running = line[len('# running '):].strip()
            elif RESULT_RE.match(line.rstrip('\n')):
                running = None
    return running


def apply_retry(ktap, cases):
    """The cases of @ktap, where a FAIL that passed when run again alone
    (ftracetest.sh writes SUITE.retry beside SUITE.ktap; upstream suites
    only) counts as PASS. Returns (cases, names of those flaky cases)."""
    retry = ktap[:-len('.ktap')] + '.retry'
    # The series' own cases must not flake: a retry never counts for them
    if os.path.basename(ktap).startswith('series') or not os.path.exists(retry):
        return cases, []
    _plan, again = parse_ktap(retry)
    passed = {name for status, name in again if status in ('PASS', 'XFAIL')}
    out, flaky = [], []
    for status, name in cases:
        if status == 'FAIL' and name in passed:
            status = 'PASS'
            flaky.append(name)
        out.append((status, name))
    return out, flaky


def scan(paths, known=None):
    """Splat lines of the logs; known ones go to the set @known instead."""
    hits = []
    for p in paths:
        if not os.path.exists(p):
            continue
        with open(p, errors='replace') as f:
            for n, line in enumerate(f, 1):
                if not SPLAT_RE.search(line):
                    continue
                m = KNOWN_RE.search(line)
                if not m:
                    hits.append('%s:%d: %s' % (os.path.basename(p), n, line.rstrip()))
                elif known is not None:
                    known.add(m.group(0))
    return hits


# The lines of a splat that say where it happened, for the excerpt
WHERE_RE = re.compile(r'(WARNING: |BUG: |Oops: |RIP: |Call Trace:'
                      r'|^\s*(\[[ \d.]+\]\s*)?\w+\+0x)')


def first_splat(paths, limit=14):
    """The first unknown splat of the first log that has one: its first
    line, then where it happened (the WARNING/BUG line, RIP, the top of
    the call trace), so that a log tail alone names the fault."""
    for p in paths:
        hits = scan([p])
        if not hits:
            continue
        n = int(hits[0].split(':', 2)[1])
        with open(p, errors='replace') as f:
            log = f.read().splitlines()
        out = [hits[0]]
        for line in log[n:n + 79]:
            if len(out) >= limit or 'end trace' in line:
                break
            if WHERE_RE.search(line):
                out.append(line.rstrip())
        return out
    return []


def why(d, suite, case):
    """The reason a case gave, from its own log (SUITE-logs/CASE.log):
    its last "FAIL:" line, or else its last line, cut to fit one line."""
    log = os.path.join(d, suite + '-logs', case.split()[0] + '.log')
    try:
        with open(log, errors='replace') as f:
            text = [l.strip() for l in f if l.strip()]
    except OSError:
        return ''
    fails = [l for l in text if l.startswith('FAIL')]
    reason = (fails or text or [''])[-1]
    if len(reason) > 160:
        reason = reason[:157] + '...'
    return ' (%s)' % reason if reason else ''


def summary(dirs):
    passed = failed = skipped = 0
    lines = []
    for d in dirs:
        for name in sorted(os.listdir(d)):
            if not name.endswith('.ktap'):
                continue
            plan, cases = parse_ktap(os.path.join(d, name))
            suite = name[:-5]
            cases, flaky = apply_retry(os.path.join(d, name), cases)
            for case in flaky:
                lines.append('  %s: FLAKY %s (failed, then passed when run again '
                             'alone; first log in %s-logs)' % (suite, case, suite))
            counts = {}
            for status, case in cases:
                counts[status] = counts.get(status, 0) + 1
                if status in ('FAIL', 'UNRESOLVED'):
                    lines.append('  %s: %s %s%s' % (suite, status, case,
                                                    why(d, suite, case)))
            missing = 0
            if plan is not None and plan > len(cases):
                missing = plan - len(cases)
                running = running_case(os.path.join(d, name))
                lines.append('  %s: %d planned case(s) never reported (%s)' % (
                    suite, missing,
                    'cut short in %s' % running if running else 'run cut short?'))
            elif plan is not None and plan < len(cases):
                missing = 1
                lines.append('  %s: plan 1..%d but %d results' % (suite, plan, len(cases)))
            elif plan is None and cases:
                missing = 1
                lines.append('  %s: %d results and no plan (run cut short?)' % (suite, len(cases)))
            if plan is None and not cases:
                missing = 1
                lines.append('  %s: no results at all' % suite)
            p = counts.get('PASS', 0) + counts.get('XFAIL', 0)
            f_ = counts.get('FAIL', 0) + counts.get('UNRESOLVED', 0) + missing
            s = counts.get('SKIP', 0)
            if suite.startswith('series'):
                # The series' own cases test its features: a case that
                # finds its feature missing has failed.
                for status, case in cases:
                    if status == 'SKIP':
                        lines.append('  %s: SKIP (feature missing) %s' % (suite, case))
                f_ += s
                s = 0
            print('# %-24s %3d passed, %3d failed, %3d skipped' % (suite, p, f_, s))
            passed += p
            failed += f_
            skipped += s
        # The suites the run was meant to leave: one that is absent
        # (never started, or the guest died before it wrote it) fails.
        expected = os.path.join(d, 'expected-suites')
        if os.path.exists(expected):
            with open(expected) as f:
                for suite in f.read().split():
                    if not os.path.exists(os.path.join(d, suite + '.ktap')):
                        failed += 1
                        lines.append('  %s: suite missing (never ran or was cut short)' % suite)
        # The guest's fate, from scripts/vm.sh: a guest that died, timed
        # out or whose command failed is a failure, whatever it reported.
        status = os.path.join(d, 'vm.status')
        if os.path.exists(status):
            with open(status, errors='replace') as f:
                code, _, reason = f.readline().strip().partition(' ')
            if code != '0':
                failed += 1
                lines.append('  guest: %s' % (reason or 'exit status ' + code))
        logs = [os.path.join(d, n) for n in ('dmesg.txt', 'console.log')]
        if not any(os.path.exists(p) for p in logs):
            continue  # a host-only run: no kernel log to judge
        known = set()
        hits = scan(logs, known)
        for k in sorted(known):
            lines.append('  known (not counted, see tests/report.py): %s' % k)
        # The same line is in both logs; count distinct messages.
        uniq = sorted(set(h.split(': ', 1)[1] for h in hits))
        if uniq:
            failed += 1
            lines.append('  kernel log of %s has %d splat line(s):' % (d, len(uniq)))
            lines.extend('    ' + h for h in uniq[:40])
            # Last, where a tail of the output (all that CI may show)
            # still has it: where the first one happened
            lines.append('  first splat of %s:' % d)
            lines.extend('    ' + h for h in first_splat(logs))
        else:
            passed += 1
            print('# %-24s kernel log clean' % os.path.basename(d.rstrip('/')))
    for line in lines:
        print('#' + line)
    print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    return 1 if failed else 0


def cases_tsv(path):
    _plan, cases = parse_ktap(path)
    cases, _flaky = apply_retry(path, cases)
    seen = {}
    for status, name in cases:
        # Keep names unique: a second case with the same description gets #2.
        seen[name] = seen.get(name, 0) + 1
        key = name if seen[name] == 1 else '%s #%d' % (name, seen[name])
        print('%s\t%s' % (status, key))


def load_tsv(path):
    out = {}
    with open(path) as f:
        for line in f:
            if '\t' in line:
                status, name = line.rstrip('\n').split('\t', 1)
                out[name] = status
    return out


def diff(base_path, new_path):
    base, new = load_tsv(base_path), load_tsv(new_path)
    bad = ('FAIL', 'UNRESOLVED')
    regress = []
    for name, st in sorted(new.items()):
        old = base.get(name)
        if st in bad and old not in bad:
            regress.append('%s -> %s: %s' % (old or 'NEW', st, name))
        elif st == 'SKIP' and old == 'PASS':
            regress.append('PASS -> SKIP: %s' % name)
    for name in sorted(set(base) - set(new)):
        if base[name] == 'PASS':
            regress.append('PASS -> MISSING: %s' % name)
    fixed = sorted(n for n, st in new.items() if st == 'PASS' and base.get(n) in bad)
    for r in regress:
        print('REGRESSION ' + r)
    for n in fixed:
        print('fixed      %s' % n)
    print('%d case(s) compared, %d regression(s)' % (len(new), len(regress)))
    return 1 if regress else 0


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == 'summary':
        return summary(args)
    if cmd == 'cases':
        cases_tsv(args[0])
        return 0
    if cmd == 'diff':
        return diff(args[0], args[1])
    if cmd == 'scan':
        hits = scan(args)
        for h in hits:
            print(h)
        return 1 if hits else 0
    print(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
