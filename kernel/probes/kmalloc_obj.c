// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_KMALLOC_OBJ: kmalloc_obj(), kzalloc_obj() and kvmalloc_obj(), which
 * allocate an object of the type of their first argument (7.x).
 */
#include <linux/slab.h>

struct probe_obj {
	int a;
};

void *probe(void);
void *probe(void)
{
	struct probe_obj *p = kmalloc_obj(*p, GFP_KERNEL);
	struct probe_obj *z = kzalloc_obj(*z, GFP_KERNEL);
	struct probe_obj *v = kvmalloc_obj(*v, GFP_KERNEL);

	kfree(z);
	kvfree(v);
	return p;
}
