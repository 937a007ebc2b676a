// SPDX-License-Identifier: GPL-2.0-only
/*
 * dma_migrate's controls, where the RFC's dcbm keeps its own: module
 * parameters (/sys/module/dma_migrate/parameters/), set at load or at run
 * time; and what it does, in /sys/kernel/mm/dma_migrate/
 * (Documentation/dma-migrate.rst).
 *
 * "offloading" starts and stops the offload. The other parameters are the
 * configuration the next start takes: they refuse a change while it runs
 * (-EBUSY), as a value out of range (-EINVAL); each refusal is logged and
 * kept in last_error, naming the parameter and why.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "dma_migrate.h"

/* serializes starting, stopping and changing the configuration */
DEFINE_MUTEX(dma_migrate_ctl_lock);

/* the next start's configuration, and whether the offload runs */
static struct dma_migrate_config dma_migrate_cfg = {
	.form = DMACOPY_FORM_MEMCPY_SG,
	.nr_chan = 1,
	.reasons = DMA_MIGRATE_REASONS_DEFAULT,
};

/* it runs: started by offloading=1, or by the compatibility ioctl */
static bool dma_migrate_on;
/* module_init() ran: "offloading" at load only asks for a start */
static bool dma_migrate_loaded;

/* the last refusal, for last_error; a writer at a time */
static char dma_migrate_last_error[256];
static DEFINE_SPINLOCK(dma_migrate_error_lock);
static DEFINE_RATELIMIT_STATE(dma_migrate_refusals, 5 * HZ, 10);

/**
 * dma_migrate_err - say why a write, or a start, is refused
 * @fmt: the parameter's name first, then why
 *
 * Logged (rate-limited) and kept for last_error.
 */
void dma_migrate_err(const char *fmt, ...)
{
	char msg[sizeof(dma_migrate_last_error)];
	va_list args;

	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	spin_lock(&dma_migrate_error_lock);
	strscpy(dma_migrate_last_error, msg, sizeof(dma_migrate_last_error));
	spin_unlock(&dma_migrate_error_lock);
	if (__ratelimit(&dma_migrate_refusals))
		pr_err("%s\n", msg);
}

/* a value as a message quotes it: its first line */
static int dma_migrate_len(const char *val)
{
	return min_t(size_t, strcspn(val, "\n"), 32);
}

/*
 * A running offload holds the module: rmmod refuses (-EBUSY) until
 * offloading=0, and module_exit() never finds it running.
 */
static int dma_migrate_ctl_start(const void *owner)
{
	int ret;

	ret = dma_migrate_start(&dma_migrate_cfg, owner);
	if (ret)
		return ret;
	__module_get(THIS_MODULE);
	dma_migrate_on = true;
	return 0;
}

static void dma_migrate_ctl_stop(void)
{
	dma_migrate_stop();
	dma_migrate_on = false;
	module_put(THIS_MODULE);
}

/* ------------------------------------------------------------------ */
/* Start and stop by an owner: the benchmark's compatibility ioctl       */
/* ------------------------------------------------------------------ */

/**
 * dma_migrate_owner_start - start the offload for @owner
 * @owner: who starts it, and alone may stop it this way
 * @cfg: its configuration, which becomes the parameters'
 *
 * Return: 0, or a negative errno with the refusal in last_error.
 */
int dma_migrate_owner_start(const void *owner,
			    const struct dma_migrate_config *cfg)
{
	int ret = -EBUSY;

	mutex_lock(&dma_migrate_ctl_lock);
	if (dma_migrate_on) {
		dma_migrate_err("offloading: the offload runs already%s: stop it first",
				dma_migrate_active && dma_migrate_active->owner ?
				   " (DMA_MIGRATE_OFFLOAD)" : " (offloading=1)");
	} else {
		dma_migrate_cfg = *cfg;
		ret = dma_migrate_ctl_start(owner);
	}
	mutex_unlock(&dma_migrate_ctl_lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(dma_migrate_owner_start, DMA_MIGRATE_NS);

/* Under dma_migrate_ctl_lock: @owner's offload runs. */
static bool dma_migrate_owned(const void *owner)
{
	return dma_migrate_on && dma_migrate_active &&
	       dma_migrate_active->owner == owner;
}

/**
 * dma_migrate_owner_stop - stop @owner's offload, reading its counters
 * @owner: who started it
 * @st: its counters, last read
 *
 * Return: 0, or -ESRCH when no offload of @owner's runs.
 */
int dma_migrate_owner_stop(const void *owner, struct dma_migrate_stats *st)
{
	int ret = -ESRCH;

	mutex_lock(&dma_migrate_ctl_lock);
	if (dma_migrate_owned(owner)) {
		dma_migrate_stats_read(st, false);
		dma_migrate_ctl_stop();
		ret = 0;
	}
	mutex_unlock(&dma_migrate_ctl_lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(dma_migrate_owner_stop, DMA_MIGRATE_NS);

/**
 * dma_migrate_owner_stats - read @owner's offload's counters
 * @owner: who started it
 * @st: the counters
 * @reset: clear them after reading
 * @nr_chan: the channels it copies over
 *
 * Return: 0, or -ESRCH when no offload of @owner's runs.
 */
int dma_migrate_owner_stats(const void *owner, struct dma_migrate_stats *st,
			    bool reset, unsigned int *nr_chan)
{
	int ret = -ESRCH;

	mutex_lock(&dma_migrate_ctl_lock);
	if (dma_migrate_owned(owner)) {
		dma_migrate_stats_read(st, reset);
		*nr_chan = dma_migrate_active->nr_shares;
		ret = 0;
	}
	mutex_unlock(&dma_migrate_ctl_lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(dma_migrate_owner_stats, DMA_MIGRATE_NS);

/* ------------------------------------------------------------------ */
/* Module parameters                                                    */
/* ------------------------------------------------------------------ */

/*
 * Called with dma_migrate_ctl_lock held: a change only while stopped. At
 * load, offloading=1 only asks module_init() for a start: the parameters
 * after it on the command line are taken.
 */
static int dma_migrate_cfg_busy(const struct kernel_param *kp)
{
	if (!dma_migrate_on || !dma_migrate_loaded)
		return 0;
	dma_migrate_err("%s: cannot change while the offload runs: set offloading=0 first",
			kp->name);
	return -EBUSY;
}

static int dma_migrate_set_offloading(const char *val,
				      const struct kernel_param *kp)
{
	bool on;
	int ret;

	ret = kstrtobool(val, &on);
	if (ret) {
		dma_migrate_err("offloading: '%.*s' is not 0 or 1",
				dma_migrate_len(val), val);
		return ret;
	}
	mutex_lock(&dma_migrate_ctl_lock);
	if (!dma_migrate_loaded) {
		/* at load: module_init() starts it, with every parameter set */
		dma_migrate_on = on;
	} else if (on && !dma_migrate_on) {
		ret = dma_migrate_ctl_start(NULL);
	} else if (!on && dma_migrate_on) {
		/* whoever started it: the controls stop it */
		dma_migrate_ctl_stop();
	}
	mutex_unlock(&dma_migrate_ctl_lock);
	return ret;
}

static int dma_migrate_get_offloading(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(dma_migrate_on));
}

static const struct kernel_param_ops dma_migrate_offloading_ops = {
	.set = dma_migrate_set_offloading,
	.get = dma_migrate_get_offloading,
};
module_param_cb(offloading, &dma_migrate_offloading_ops, NULL, 0644);
MODULE_PARM_DESC(offloading,
		 "1: request the channels and register with the migration hook; 0: unregister and release them");

/* An unsigned parameter within [lo, hi], changed only while stopped. */
struct dma_migrate_uint_param {
	unsigned int *val;
	unsigned int lo;
	unsigned int hi;
};

static int dma_migrate_set_uint(const char *val, const struct kernel_param *kp)
{
	const struct dma_migrate_uint_param *p = kp->arg;
	unsigned int v;
	int ret;

	ret = kstrtouint(val, 0, &v);
	if (ret || v < p->lo || v > p->hi) {
		dma_migrate_err("%s: '%.*s' is not a number in %u..%u",
				kp->name, dma_migrate_len(val), val, p->lo, p->hi);
		return -EINVAL;
	}
	mutex_lock(&dma_migrate_ctl_lock);
	ret = dma_migrate_cfg_busy(kp);
	if (!ret)
		*p->val = v;
	mutex_unlock(&dma_migrate_ctl_lock);
	return ret;
}

static int dma_migrate_get_uint(char *buf, const struct kernel_param *kp)
{
	const struct dma_migrate_uint_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*p->val));
}

static const struct kernel_param_ops dma_migrate_uint_ops = {
	.set = dma_migrate_set_uint,
	.get = dma_migrate_get_uint,
};

static struct dma_migrate_uint_param dma_migrate_p_nr_dma_chan = {
	&dma_migrate_cfg.nr_chan, 1, DMA_MIGRATE_MAX_CHANNELS
};
module_param_cb(nr_dma_chan, &dma_migrate_uint_ops,
		&dma_migrate_p_nr_dma_chan, 0644);
MODULE_PARM_DESC(nr_dma_chan,
		 "DMA_MEMCPY channels to copy over; a batch's folios are shared out among them (1..256, default 1)");

static struct dma_migrate_uint_param dma_migrate_p_timeout_ms = {
	&dma_migrate_cfg.timeout_ms, 0, DMA_MIGRATE_MAX_TIMEOUT_MS
};
module_param_cb(timeout_ms, &dma_migrate_uint_ops,
		&dma_migrate_p_timeout_ms, 0644);
MODULE_PARM_DESC(timeout_ms,
		 "how long one batch may take before its folios fall back to the CPU (0..600000, 0: 10000)");

static struct dma_migrate_uint_param dma_migrate_p_min_folios = {
	&dma_migrate_cfg.min_folios, 0, UINT_MAX
};
module_param_cb(min_folios, &dma_migrate_uint_ops,
		&dma_migrate_p_min_folios, 0644);
MODULE_PARM_DESC(min_folios,
		 "a batch of fewer folios is left to the CPU (0 or 1: every batch)");

static int dma_migrate_set_allow_fewer(const char *val,
				       const struct kernel_param *kp)
{
	bool v;
	int ret;

	ret = kstrtobool(val, &v);
	if (ret) {
		dma_migrate_err("allow_fewer: '%.*s' is not 0 or 1",
				dma_migrate_len(val), val);
		return ret;
	}
	mutex_lock(&dma_migrate_ctl_lock);
	ret = dma_migrate_cfg_busy(kp);
	if (!ret)
		dma_migrate_cfg.allow_fewer = v;
	mutex_unlock(&dma_migrate_ctl_lock);
	return ret;
}

static int dma_migrate_get_allow_fewer(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(dma_migrate_cfg.allow_fewer));
}

static const struct kernel_param_ops dma_migrate_allow_fewer_ops = {
	.set = dma_migrate_set_allow_fewer,
	.get = dma_migrate_get_allow_fewer,
};
module_param_cb(allow_fewer, &dma_migrate_allow_fewer_ops, NULL, 0644);
MODULE_PARM_DESC(allow_fewer,
		 "1: start on the channels found when fewer than nr_dma_chan are free");

/* A channel or device name to match, changed only while stopped. */
static int dma_migrate_set_name(const char *val, const struct kernel_param *kp)
{
	char *name = kp->arg;
	size_t len = strcspn(val, "\n");
	int ret;

	if (len >= DMA_MIGRATE_NAME_LEN) {
		dma_migrate_err("%s: a name of at most %u characters",
				kp->name, DMA_MIGRATE_NAME_LEN - 1);
		return -EINVAL;
	}
	mutex_lock(&dma_migrate_ctl_lock);
	ret = dma_migrate_cfg_busy(kp);
	if (!ret)
		strscpy(name, val, len + 1);
	mutex_unlock(&dma_migrate_ctl_lock);
	return ret;
}

static int dma_migrate_get_name(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", (const char *)kp->arg);
}

static const struct kernel_param_ops dma_migrate_name_ops = {
	.set = dma_migrate_set_name,
	.get = dma_migrate_get_name,
};
module_param_cb(channel, &dma_migrate_name_ops, dma_migrate_cfg.channel, 0644);
MODULE_PARM_DESC(channel, "only the channel of this name (dma0chan1), empty: any");
module_param_cb(device, &dma_migrate_name_ops, dma_migrate_cfg.device, 0644);
MODULE_PARM_DESC(device, "only channels of the DMA device of this name, empty: any");

static int dma_migrate_set_form(const char *val, const struct kernel_param *kp)
{
	int form, ret;

	form = dma_migrate_form_parse(val);
	if (form < 0)
		return form;
	mutex_lock(&dma_migrate_ctl_lock);
	ret = dma_migrate_cfg_busy(kp);
	if (!ret)
		dma_migrate_cfg.form = form;
	mutex_unlock(&dma_migrate_ctl_lock);
	return ret;
}

static int dma_migrate_get_form(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n",
			  dma_migrate_form_short(READ_ONCE(dma_migrate_cfg.form)));
}

static const struct kernel_param_ops dma_migrate_form_ops = {
	.set = dma_migrate_set_form,
	.get = dma_migrate_get_form,
};
module_param_cb(prep_form, &dma_migrate_form_ops, NULL, 0644);
MODULE_PARM_DESC(prep_form,
		 "how a share becomes descriptors: memcpy (one per segment), memcpy_sg or memcpy_vec (one per share; default memcpy_sg)");

static int dma_migrate_set_reasons(const char *val,
				   const struct kernel_param *kp)
{
	unsigned long mask;
	int ret;

	ret = dma_migrate_reasons_parse(val, &mask);
	if (ret)
		return ret;
	mutex_lock(&dma_migrate_ctl_lock);
	ret = dma_migrate_cfg_busy(kp);
	if (!ret)
		dma_migrate_cfg.reasons = mask;
	mutex_unlock(&dma_migrate_ctl_lock);
	return ret;
}

static int dma_migrate_get_reasons(char *buf, const struct kernel_param *kp)
{
	return dma_migrate_reasons_show(buf, READ_ONCE(dma_migrate_cfg.reasons));
}

static const struct kernel_param_ops dma_migrate_reasons_ops = {
	.set = dma_migrate_set_reasons,
	.get = dma_migrate_get_reasons,
};
module_param_cb(reason_mask, &dma_migrate_reasons_ops, NULL, 0644);
MODULE_PARM_DESC(reason_mask,
		 "the migrations to offload: names (syscall,numa_misplaced,demotion,compaction), all, none, or a mask of BIT(enum migrate_reason)");

/* ------------------------------------------------------------------ */
/* /sys/kernel/mm/dma_migrate/                                          */
/* ------------------------------------------------------------------ */

static ssize_t hook_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", dma_migrate_hook_name());
}

static struct kobj_attribute hook_attr = __ATTR_RO(hook);

static ssize_t channels_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	ssize_t len;

	mutex_lock(&dma_migrate_ctl_lock);
	len = dma_migrate_channels_show(buf);
	mutex_unlock(&dma_migrate_ctl_lock);
	return len;
}

static struct kobj_attribute channels_attr = __ATTR_RO(channels);

/* the counters' lines: name, field of struct dma_migrate_stats, unit */
#define DMA_MIGRATE_COUNTER(name, field, unit) \
	{ name, offsetof(struct dma_migrate_stats, field), unit }

static const struct {
	const char *name;
	size_t off;
	const char *unit;
} dma_migrate_counters[] = {
	DMA_MIGRATE_COUNTER("batches", batches, "batches"),
	DMA_MIGRATE_COUNTER("batches_declined", declined, "batches"),
	DMA_MIGRATE_COUNTER("errors", errors, "batches"),
	DMA_MIGRATE_COUNTER("folios", folios, "folios"),
	DMA_MIGRATE_COUNTER("folios_offloaded", offloaded, "folios"),
	DMA_MIGRATE_COUNTER("folios_fallback", fallback, "folios"),
	DMA_MIGRATE_COUNTER("folios_declined", declined_folios, "folios"),
	DMA_MIGRATE_COUNTER("folios_lost", lost, "folios"),
	DMA_MIGRATE_COUNTER("folios_released", released, "folios"),
	DMA_MIGRATE_COUNTER("bytes", bytes, "bytes"),
	DMA_MIGRATE_COUNTER("descriptors", descriptors, "descriptors"),
	DMA_MIGRATE_COUNTER("async_batches", async_batches, "batches"),
	DMA_MIGRATE_COUNTER("async_max_ns", async_max_ns, "ns"),
};

/* the phases' lines: "phase.<name>", the list's phases with @migrate 1 */
#define DMA_MIGRATE_LINE_0(id, name, unit)
#define DMA_MIGRATE_LINE_1(id, name, unit) \
	{ "phase." name, DMA_MIGRATE_UNIT_##unit, DMA_MIGRATE_PH_##id },
#define DMA_MIGRATE_PH_LINE_(id, name, unit, modes, migrate) \
	DMA_MIGRATE_LINE_##migrate(id, name, unit)

static const struct {
	const char *name;
	const char *unit;
	unsigned int ph;
} dma_migrate_phase_lines[] = {
	DMA_MIGRATE_PHASE_LIST(DMA_MIGRATE_PH_LINE_)
};

static_assert(ARRAY_SIZE(dma_migrate_phase_lines) == DMA_MIGRATE_NR_PH);

/*
 * One "name value unit" line per counter and per phase: the running
 * offload's counters, else the last one's; a reader skips the lines it
 * does not know.
 */
static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct dma_migrate_stats st;
	unsigned int nr_chan = 0, i;
	ssize_t len = 0;

	mutex_lock(&dma_migrate_ctl_lock);
	dma_migrate_stats_read(&st, false);
	if (dma_migrate_active)
		nr_chan = dma_migrate_active->nr_shares;
	mutex_unlock(&dma_migrate_ctl_lock);

	len += sysfs_emit_at(buf, len, "channels_used %u channels\n", nr_chan);
	for (i = 0; i < ARRAY_SIZE(dma_migrate_counters); i++)
		len += sysfs_emit_at(buf, len, "%s %llu %s\n",
				     dma_migrate_counters[i].name,
				     *(const u64 *)((const char *)&st +
						    dma_migrate_counters[i].off),
				     dma_migrate_counters[i].unit);
	for (i = 0; i < ARRAY_SIZE(dma_migrate_phase_lines); i++)
		len += sysfs_emit_at(buf, len, "%s %llu %s\n",
				     dma_migrate_phase_lines[i].name,
				     st.ph[dma_migrate_phase_lines[i].ph],
				     dma_migrate_phase_lines[i].unit);
	return len;
}

static struct kobj_attribute stats_attr = __ATTR_RO(stats);

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	struct dma_migrate_stats st;
	bool v;

	if (kstrtobool(buf, &v) || !v) {
		dma_migrate_err("reset: '%.*s': write 1 to clear the counters",
				dma_migrate_len(buf), buf);
		return -EINVAL;
	}
	mutex_lock(&dma_migrate_ctl_lock);
	dma_migrate_stats_read(&st, true);
	mutex_unlock(&dma_migrate_ctl_lock);
	return count;
}

static struct kobj_attribute reset_attr = __ATTR_WO(reset);

static ssize_t last_error_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	ssize_t len;

	spin_lock(&dma_migrate_error_lock);
	len = sysfs_emit(buf, "%s\n", dma_migrate_last_error);
	spin_unlock(&dma_migrate_error_lock);
	return len;
}

static struct kobj_attribute last_error_attr = __ATTR_RO(last_error);

static struct attribute *dma_migrate_attrs[] = {
	&hook_attr.attr,
	&channels_attr.attr,
	&stats_attr.attr,
	&reset_attr.attr,
	&last_error_attr.attr,
	NULL,
};

static const struct attribute_group dma_migrate_group = {
	.attrs = dma_migrate_attrs,
};

static struct kobject *dma_migrate_kobj;

/*
 * /sys/kernel/mm, whose kobject (mm_kobj) modules are not given: the
 * kobject of its sysfs directory, which lives as long as the kernel.
 */
static struct kobject *dma_migrate_mm_kobj(void)
{
	struct kernfs_node *kn;
	struct kobject *kobj;

	kn = kernfs_find_and_get(kernel_kobj->sd, "mm");
	if (!kn)
		return NULL;
	kobj = kernfs_type(kn) == KERNFS_DIR ? kn->priv : NULL;
	kernfs_put(kn);
	return kobj;
}

static int __init dma_migrate_init(void)
{
	struct kobject *mm = dma_migrate_mm_kobj();
	int ret = 0;

	if (!mm) {
		pr_err("no /sys/kernel/mm: a kernel without CONFIG_SYSFS?\n");
		return -ENOENT;
	}
	dma_migrate_kobj = kobject_create_and_add("dma_migrate", mm);
	if (!dma_migrate_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(dma_migrate_kobj, &dma_migrate_group);
	if (ret)
		goto put;

	mutex_lock(&dma_migrate_ctl_lock);
	dma_migrate_loaded = true;
	/* offloading=1 on the command line: start with every parameter */
	if (dma_migrate_on) {
		dma_migrate_on = false;
		ret = dma_migrate_ctl_start(NULL);
	}
	mutex_unlock(&dma_migrate_ctl_lock);
	if (ret)
		goto remove;
	return 0;

remove:
	sysfs_remove_group(dma_migrate_kobj, &dma_migrate_group);
put:
	kobject_put(dma_migrate_kobj);
	return ret;
}
module_init(dma_migrate_init);

static void __exit dma_migrate_exit(void)
{
	/* a running offload holds the module: it is stopped */
	sysfs_remove_group(dma_migrate_kobj, &dma_migrate_group);
	kobject_put(dma_migrate_kobj);
}
module_exit(dma_migrate_exit);

MODULE_DESCRIPTION("Page migration's copy offload over dmaengine memcpy channels");
MODULE_LICENSE("GPL");
