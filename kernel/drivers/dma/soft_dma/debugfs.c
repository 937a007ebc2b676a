// SPDX-License-Identifier: GPL-2.0-only
/*
 * soft_dma's debugfs directory: the run-time knobs, plain files in the
 * netdevsim and null_blk style, and the counters; a directory per bound
 * device with its own knobs and counters.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "soft_dma.h"

struct soft_dma_knobs soft_dma_knob_defaults = {
	.stall_channel = -1,
};

/* debugfs "memcpy_sg": whether the channels offer DMA_MEMCPY_SG */
static bool soft_dma_has_memcpy_sg;
/* debugfs "memcpy_vec": whether the channels offer DMA_MEMCPY_VEC */
static bool soft_dma_has_memcpy_vec;

static struct dentry *soft_dma_dir;

/* ------------------------------------------------------------------ */
/* Run-time knobs                                                      */
/* ------------------------------------------------------------------ */

/*
 * Each knob is a file in the top-level directory and in each bound
 * device's. A device's file reads and sets that device's knob. A top-level
 * file reads the default a device binds with; writing it sets the default
 * and every bound device's knob, so that the top-level files go on meaning
 * "soft_dma", as they did when the knobs were module-wide.
 */

/* The top-level files' soft_dma_knob_file: @sd NULL. */
static struct soft_dma_knob_file soft_dma_default_files[SOFT_DMA_NR_KNOBS];

static const char * const soft_dma_knob_names[SOFT_DMA_NR_KNOBS] = {
	[SOFT_DMA_KNOB_NOCOPY]		= "nocopy",
	[SOFT_DMA_KNOB_DELAY_US]	= "delay_us",
	[SOFT_DMA_KNOB_FAIL_PREP_EVERY]	= "fail_prep_every",
	[SOFT_DMA_KNOB_FAIL_SUBMIT_EVERY] = "fail_submit_every",
	[SOFT_DMA_KNOB_ERROR_EVERY]	= "error_every",
	[SOFT_DMA_KNOB_STALL_CHANNEL]	= "stall_channel",
};

static s64 soft_dma_knob_get(const struct soft_dma_knobs *k,
			     enum soft_dma_knob knob)
{
	switch (knob) {
	case SOFT_DMA_KNOB_NOCOPY:
		return READ_ONCE(k->nocopy);
	case SOFT_DMA_KNOB_DELAY_US:
		return READ_ONCE(k->delay_us);
	case SOFT_DMA_KNOB_FAIL_PREP_EVERY:
		return READ_ONCE(k->fail_prep_every);
	case SOFT_DMA_KNOB_FAIL_SUBMIT_EVERY:
		return READ_ONCE(k->fail_submit_every);
	case SOFT_DMA_KNOB_ERROR_EVERY:
		return READ_ONCE(k->error_every);
	case SOFT_DMA_KNOB_STALL_CHANNEL:
		return READ_ONCE(k->stall_channel);
	default:
		return 0;
	}
}

/* @val was checked against the knob's range by the caller. */
static void soft_dma_knob_put(struct soft_dma_knobs *k,
			      enum soft_dma_knob knob, s64 val)
{
	switch (knob) {
	case SOFT_DMA_KNOB_NOCOPY:
		WRITE_ONCE(k->nocopy, !!val);
		break;
	case SOFT_DMA_KNOB_DELAY_US:
		WRITE_ONCE(k->delay_us, val);
		break;
	case SOFT_DMA_KNOB_FAIL_PREP_EVERY:
		WRITE_ONCE(k->fail_prep_every, val);
		break;
	case SOFT_DMA_KNOB_FAIL_SUBMIT_EVERY:
		WRITE_ONCE(k->fail_submit_every, val);
		break;
	case SOFT_DMA_KNOB_ERROR_EVERY:
		WRITE_ONCE(k->error_every, val);
		break;
	case SOFT_DMA_KNOB_STALL_CHANNEL:
		WRITE_ONCE(k->stall_channel, val);
		break;
	default:
		break;
	}
}

/* Set a device's knob and let its engines look at their queues again. */
static void soft_dma_dev_knob_put(struct soft_dma_dev *sd,
				  enum soft_dma_knob knob, s64 val)
{
	unsigned int i;

	lockdep_assert_held(&soft_dma_mutex);
	soft_dma_knob_put(&sd->knobs, knob, val);
	for (i = 0; i < sd->nr_chans; i++)
		soft_dma_kick(&sd->chans[i]);
}

/*
 * Parse a write the way the files parsed it when they were
 * debugfs_create_bool() and debugfs_create_u32() ones (kstrtobool, and
 * unsigned with any base), and stall_channel as a signed number: -1 lets
 * the channel run again. stall_channel is -1..255 at the top level, and in
 * a device's directory -1 or one of that device's channels.
 */
static int soft_dma_knob_parse(const struct soft_dma_knob_file *f,
			       const char __user *ubuf, size_t count, s64 *val)
{
	int ret, max;
	bool b;
	u32 u;
	int v;

	switch (f->knob) {
	case SOFT_DMA_KNOB_NOCOPY:
		ret = kstrtobool_from_user(ubuf, count, &b);
		*val = b;
		return ret;
	case SOFT_DMA_KNOB_STALL_CHANNEL:
		ret = kstrtoint_from_user(ubuf, count, 0, &v);
		if (ret)
			return ret;
		max = f->sd ? f->sd->nr_chans : SOFT_DMA_MAX_CHANNELS;
		if (v < -1 || v >= max)
			return -EINVAL;
		*val = v;
		return 0;
	default:
		ret = kstrtou32_from_user(ubuf, count, 0, &u);
		*val = u;
		return ret;
	}
}

static ssize_t soft_dma_knob_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	const struct soft_dma_knob_file *f = file_inode(file)->i_private;
	struct soft_dma_dev *sd;
	s64 val;
	int ret;

	if (*ppos)
		return -EINVAL;
	ret = soft_dma_knob_parse(f, ubuf, count, &val);
	if (ret)
		return ret;

	/*
	 * Under soft_dma_mutex: a top-level write and a device's own do not
	 * interleave, and a device that binds meanwhile either copies the new
	 * default or is on the list already. A device's directory is removed
	 * (debugfs waits for this write) before its device leaves the list.
	 */
	mutex_lock(&soft_dma_mutex);
	if (f->sd) {
		soft_dma_dev_knob_put(f->sd, f->knob, val);
	} else {
		soft_dma_knob_put(&soft_dma_knob_defaults, f->knob, val);
		list_for_each_entry(sd, &soft_dma_devs, node)
			soft_dma_dev_knob_put(sd, f->knob, val);
	}
	mutex_unlock(&soft_dma_mutex);
	return count;
}

static ssize_t soft_dma_knob_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	const struct soft_dma_knob_file *f = file_inode(file)->i_private;
	const struct soft_dma_knobs *k;
	char buf[16];
	s64 val;
	int len;

	k = f->sd ? &f->sd->knobs : &soft_dma_knob_defaults;
	val = soft_dma_knob_get(k, f->knob);
	if (f->knob == SOFT_DMA_KNOB_NOCOPY)
		len = scnprintf(buf, sizeof(buf), "%c\n", val ? 'Y' : 'N');
	else
		len = scnprintf(buf, sizeof(buf), "%lld\n", val);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations soft_dma_knob_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = soft_dma_knob_read,
	.write = soft_dma_knob_write,
	.llseek = default_llseek,
};

/* The knob files in @dir, each setting what @files[knob] says. */
static void soft_dma_debugfs_add_knobs(struct dentry *dir,
				       struct soft_dma_knob_file *files,
				       struct soft_dma_dev *sd)
{
	enum soft_dma_knob knob;

	for (knob = 0; knob < SOFT_DMA_NR_KNOBS; knob++) {
		files[knob].sd = sd;
		files[knob].knob = knob;
		debugfs_create_file(soft_dma_knob_names[knob], 0644, dir,
				    &files[knob], &soft_dma_knob_fops);
	}
}

/* ------------------------------------------------------------------ */
/* Counters                                                            */
/* ------------------------------------------------------------------ */

static int soft_dma_stats_show(struct seq_file *m, void *unused)
{
	struct soft_dma_dev *sd = m->private;
	unsigned int i;

	seq_puts(m, "channel prepared prep_failed pool_empty submitted completed errors aborted interrupts callbacks out_of_order bytes busy_ns submit_failed stalls late_callbacks\n");
	for (i = 0; i < sd->nr_chans; i++) {
		struct soft_dma_chan *sc = &sd->chans[i];
		struct soft_dma_stats s;

		spin_lock_irq(&sc->lock);
		s = sc->stats;
		spin_unlock_irq(&sc->lock);
		seq_printf(m, "%s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
			   sc->name, s.prepared, s.prep_failed, s.pool_empty,
			   s.submitted, s.completed, s.errors, s.aborted,
			   s.interrupts, s.callbacks, s.out_of_order, s.bytes,
			   s.busy_ns, s.submit_failed, s.stalls,
			   s.late_callbacks);
	}
	return 0;
}

static int soft_dma_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, soft_dma_stats_show, inode->i_private);
}

/* Any write resets the counters. */
static ssize_t soft_dma_stats_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct soft_dma_dev *sd = file_inode(file)->i_private;
	unsigned int i;

	for (i = 0; i < sd->nr_chans; i++) {
		struct soft_dma_chan *sc = &sd->chans[i];

		spin_lock_irq(&sc->lock);
		memset(&sc->stats, 0, sizeof(sc->stats));
		spin_unlock_irq(&sc->lock);
	}
	return count;
}

static const struct file_operations soft_dma_stats_fops = {
	.owner = THIS_MODULE,
	.open = soft_dma_stats_open,
	.read = seq_read,
	.write = soft_dma_stats_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * "terminate_all": Y when the device registered device_terminate_all, N
 * with no_terminate, where dmaengine_terminate_*() return -EINVAL.
 * "synchronize": Y when it registered device_synchronize, N with
 * no_terminate or no_synchronize, where dmaengine_synchronize() does
 * nothing. Read from the dma_device, which is what the dmaengine core
 * looks at.
 */
static ssize_t soft_dma_yn_read(char __user *ubuf, size_t count, loff_t *ppos,
				bool yes)
{
	char buf[2] = { yes ? 'Y' : 'N', '\n' };

	return simple_read_from_buffer(ubuf, count, ppos, buf, sizeof(buf));
}

static ssize_t soft_dma_terminate_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	struct soft_dma_dev *sd = file_inode(file)->i_private;

	return soft_dma_yn_read(ubuf, count, ppos,
				sd->dma.device_terminate_all);
}

static const struct file_operations soft_dma_terminate_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = soft_dma_terminate_read,
	.llseek = default_llseek,
};

static ssize_t soft_dma_synchronize_read(struct file *file, char __user *ubuf,
					 size_t count, loff_t *ppos)
{
	struct soft_dma_dev *sd = file_inode(file)->i_private;

	return soft_dma_yn_read(ubuf, count, ppos, sd->dma.device_synchronize);
}

static const struct file_operations soft_dma_synchronize_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = soft_dma_synchronize_read,
	.llseek = default_llseek,
};

static int soft_dma_descs_get(void *data, u64 *val)
{
	*val = soft_dma_live_descs();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(soft_dma_descs_fops, soft_dma_descs_get, NULL,
			 "%llu\n");

/*
 * The device's directory, named after it, with its "stats" file, its
 * "terminate_all" and "synchronize" flags and its knobs: one per bound device, so that a
 * second one does not collide with the first. Removed by the caller on
 * unbind, before the device leaves soft_dma_devs.
 */
struct dentry *soft_dma_debugfs_add_dev(struct soft_dma_dev *sd)
{
	struct dentry *dir = debugfs_create_dir(dev_name(&sd->pdev->dev),
						soft_dma_dir);

	debugfs_create_file("stats", 0644, dir, sd, &soft_dma_stats_fops);
	debugfs_create_file("terminate_all", 0444, dir, sd,
			    &soft_dma_terminate_fops);
	debugfs_create_file("synchronize", 0444, dir, sd,
			    &soft_dma_synchronize_fops);
	soft_dma_debugfs_add_knobs(dir, sd->knob_files, sd);
	return dir;
}

void soft_dma_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir(SOFT_DMA_NAME, NULL);

	soft_dma_dir = dir;
	soft_dma_has_memcpy_sg = dma_bench_have_memcpy_sg();
	soft_dma_has_memcpy_vec = dma_bench_have_memcpy_vec();
	soft_dma_debugfs_add_knobs(dir, soft_dma_default_files, NULL);
	debugfs_create_file_unsafe("descriptors", 0444, dir, NULL,
				   &soft_dma_descs_fops);
	debugfs_create_bool("memcpy_sg", 0444, dir, &soft_dma_has_memcpy_sg);
	debugfs_create_bool("memcpy_vec", 0444, dir, &soft_dma_has_memcpy_vec);
}

void soft_dma_debugfs_exit(void)
{
	debugfs_remove_recursive(soft_dma_dir);
}
