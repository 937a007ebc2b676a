// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_hold: run a command with page migration's copy offload started
 * (dma_migrate.ko's controls, migrate_util.h), so that the migrations of programs that know
 * nothing of it go through it: the kernel's own mm selftests, say.
 *
 *   migrate_hold [prep=MODE] [channels=N] [reasons=MASK] -- COMMAND [ARG...]
 *
 * START over N channels (default 1, fewer allowed) with prep MODE
 * (default 0, per-segment memcpy) for the reasons in MASK (default
 * DMA_MIGRATE_R_SYSCALL: move_pages() and migrate_pages() of every
 * task), the counters reset; then COMMAND, waited for; then STATS and
 * STOP. Prints "START: channels_used=N prep_mode_used=N" first and
 * "offload: folios=N offloaded=N fallback=N declined=N errors=N" last.
 * Exit status: COMMAND's (128 + the signal that ended it), or 125 when
 * the offload could not be started or stopped or COMMAND not run.
 */
#define _GNU_SOURCE
#define __SANE_USERSPACE_TYPES__
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "migrate_util.h"

static int mh_usage(void)
{
	fprintf(stderr, "usage: migrate_hold [prep=MODE] [channels=N] [reasons=MASK] -- COMMAND [ARG...]\n");
	return 125;
}

int main(int argc, char **argv)
{
	struct dma_migrate_offload a = { 0 }, req;
	int i, status;
	pid_t pid;

	a.channels = 1;
	a.reasons = DMA_MIGRATE_R_SYSCALL;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		char *eq = strchr(argv[i], '=');
		unsigned long v;

		if (!eq)
			return mh_usage();
		v = strtoul(eq + 1, NULL, 0);
		if (!strncmp(argv[i], "prep=", 5))
			a.prep_mode = v;
		else if (!strncmp(argv[i], "channels=", 9))
			a.channels = v;
		else if (!strncmp(argv[i], "reasons=", 8))
			a.reasons = v;
		else
			return mh_usage();
	}
	if (i + 1 >= argc)
		return mh_usage();
	req = a;
	if (mu_offload(-1, &a, DMA_MIGRATE_OP_START,
		       DMA_MIGRATE_F_ALLOW_FEWER) < 0) {
		printf("START: %s error=%u hook=%u\n", strerror(errno), a.error,
		       a.hook);
		return 125;
	}
	printf("START: channels_used=%u prep_mode_used=%u\n", a.channels_used,
	       a.prep_mode_used);
	a = req;
	mu_offload(-1, &a, DMA_MIGRATE_OP_STATS, DMA_MIGRATE_F_RESET);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 125;
	}
	if (!pid) {
		execvp(argv[i + 1], argv + i + 1);
		perror(argv[i + 1]);
		_exit(125);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("waitpid");
			return 125;
		}
	}
	a = req;
	if (mu_offload(-1, &a, DMA_MIGRATE_OP_STATS, 0) < 0) {
		perror("STATS");
		return 125;
	}
	printf("offload: folios=%llu offloaded=%llu fallback=%llu declined=%llu errors=%llu\n",
	       a.folios, a.folios_offloaded, a.folios_fallback,
	       a.folios_declined, a.errors);
	a = req;
	if (mu_offload(-1, &a, DMA_MIGRATE_OP_STOP, 0) < 0) {
		perror("STOP");
		return 125;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
