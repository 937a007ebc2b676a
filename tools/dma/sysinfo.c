// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the reports say about where they ran: tool version, kernel release.
 */
#include <string.h>
#include <sys/utsname.h>

#include "sysinfo.h"

#ifndef VERSION
#define VERSION "unknown"
#endif

const char tool_version[] = VERSION;

const char *kernel_release(void)
{
	static struct utsname uts;

	if (!uts.release[0] && uname(&uts))
		strcpy(uts.release, "unknown");
	return uts.release;
}
