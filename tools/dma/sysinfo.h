/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the reports say about where they ran: tool version, kernel release.
 */
#ifndef DMABENCH_SYSINFO_H
#define DMABENCH_SYSINFO_H

/* The tool's version: the VERSION macro (git describe), else "unknown". */
extern const char tool_version[];

/* kernel_release() - uname -r, or "unknown" */
const char *kernel_release(void);

#endif
