# Entry points. Each target installs the Debian packages it needs.
#   make run         build, boot, show the feature; shell if stdin is a tty
#   make check       the CI tier (within CI's 90 minutes: see README, The budget)
#   make check-full  whole upstream suite on patched and base, debug kernel
#   make bench       overhead benchmark (ratios under TCG)
#   make tree / export / series-check / build / base-build / clean
SHELL := /bin/bash
S := scripts

.PHONY: run check check-full check-host bench tree export series-check build base-build vm clean

run:
	$(S)/run.sh

check:
	$(S)/check.sh

check-full:
	$(S)/check-full.sh

check-host:
	$(S)/check.sh --host-only

bench:
	$(S)/bench.sh

tree:
	$(S)/deps.sh build && $(S)/tree.sh create

export:
	$(S)/tree.sh export

series-check:
	$(S)/series-check.sh

build: tree
	$(S)/build.sh patched

base-build: tree
	$(S)/build.sh base

# make vm CMD='cat /proc/version'
vm:
	$(S)/vm.sh -i -- bash -c '$(or $(CMD),exec bash -l)'

clean:
	rm -rf build
