// SPDX-License-Identifier: GPL-2.0-only
/* HAVE_PLATFORM_REMOVE_VOID: platform_driver::remove returns void (6.11+). */
#include <linux/platform_device.h>

static void probe_remove(struct platform_device *pdev)
{
}

struct platform_driver probe_driver = {
	.remove = probe_remove,
};
