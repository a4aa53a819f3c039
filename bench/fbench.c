// SPDX-License-Identifier: GPL-2.0
/*
 * fbench: the workloads of the function tracing benchmark.
 *
 *   fbench syscall ITERS   read(2) one byte from /dev/zero ITERS times:
 *                          each iteration passes once through ksys_read()
 *   fbench depth ITERS     the same read; the driver traces ksys_read() and
 *                          the functions it calls, a fixed call tree
 *   fbench multi ITERS [P] P processes (default 4), each running ITERS
 *                          rounds of open/read/close, a pipe round trip,
 *                          stat and getppid: load for all-function tracing
 *
 * Prints the wall-clock nanoseconds per iteration (per round of all P
 * processes for "multi") on stdout, nothing else, so that a driver can
 * read it. Only ratios between runs in one boot mean anything under an
 * emulator.
 *
 * FBENCH_JITTER=1 (syscall and depth): after each read, spin in user
 * space a pseudo-random number of times, 0 to 255, the same sequence in
 * every run. Under QEMU's -icount a profiler's timer falls every so many
 * instructions, and in a loop of a fixed length it would land on the same
 * few points of the loop, whatever their share: the spin spreads the
 * samples over the whole loop.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "fbench: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void spin(void)
{
	static unsigned int seed = 1;
	volatile unsigned int n;
	unsigned int k;

	seed = seed * 1103515245 + 12345;
	k = (seed >> 16) & 255;
	for (n = 0; n < k; n++)
		;
}

static void read_loop(long iters)
{
	const char *j = getenv("FBENCH_JITTER");
	int jitter = j && !strcmp(j, "1");
	char c;
	long i;
	int fd;

	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		die("/dev/zero");
	for (i = 0; i < iters; i++) {
		if (read(fd, &c, 1) != 1)
			die("read");
		if (jitter)
			spin();
	}
	close(fd);
}

static void mixed_loop(long iters)
{
	struct stat st;
	char buf[64];
	int p[2];
	long i;
	int fd;

	if (pipe(p))
		die("pipe");
	for (i = 0; i < iters; i++) {
		fd = open("/proc/self/stat", O_RDONLY);
		if (fd < 0)
			die("/proc/self/stat");
		if (read(fd, buf, sizeof(buf)) <= 0)
			die("read");
		close(fd);
		if (write(p[1], buf, 8) != 8 || read(p[0], buf, 8) != 8)
			die("pipe round trip");
		if (stat("/", &st))
			die("stat");
		getppid();
	}
	close(p[0]);
	close(p[1]);
}

static void multi(long iters, int procs)
{
	int i, status, bad = 0;

	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			mixed_loop(iters);
			_exit(0);
		}
	}
	for (i = 0; i < procs; i++) {
		if (wait(&status) < 0)
			die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	}
	if (bad) {
		fprintf(stderr, "fbench: a worker failed\n");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	unsigned long long t0, t1;
	long iters;
	int procs = 4;

	if (argc < 3) {
		fprintf(stderr, "usage: fbench syscall|depth|multi ITERS [PROCS]\n");
		return 2;
	}
	iters = strtol(argv[2], NULL, 0);
	if (iters <= 0) {
		fprintf(stderr, "fbench: bad iteration count %s\n", argv[2]);
		return 2;
	}
	if (argc > 3)
		procs = atoi(argv[3]);
	if (procs <= 0 || procs > 64) {
		fprintf(stderr, "fbench: bad process count\n");
		return 2;
	}

	t0 = now_ns();
	if (!strcmp(argv[1], "syscall") || !strcmp(argv[1], "depth"))
		read_loop(iters);
	else if (!strcmp(argv[1], "multi"))
		multi(iters, procs);
	else {
		fprintf(stderr, "fbench: unknown loop %s\n", argv[1]);
		return 2;
	}
	t1 = now_ns();
	printf("%.1f\n", (double)(t1 - t0) / iters);
	return 0;
}
