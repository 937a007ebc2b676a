// SPDX-License-Identifier: GPL-2.0-only
/*
 * soft_dma's debugfs directory: the run-time knobs, plain files in the
 * netdevsim and null_blk style, and the counters.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "../../compat.h"
#include "soft_dma.h"

struct soft_dma_knobs soft_dma_knobs = {
	.stall_channel = -1,
};

/* debugfs "memcpy_sg": whether the channels offer DMA_MEMCPY_SG */
static bool soft_dma_has_memcpy_sg;
/* debugfs "memcpy_vec": whether the channels offer DMA_MEMCPY_VEC */
static bool soft_dma_has_memcpy_vec;

static struct dentry *soft_dma_dir;

/* stall_channel: -1..255; a write lets every engine look at its queue */
static int soft_dma_stall_set(int val)
{
	struct soft_dma_dev *sd;
	unsigned int i;

	if (val < -1 || val >= SOFT_DMA_MAX_CHANNELS)
		return -EINVAL;
	WRITE_ONCE(soft_dma_knobs.stall_channel, val);

	mutex_lock(&soft_dma_mutex);
	list_for_each_entry(sd, &soft_dma_devs, node)
		for (i = 0; i < sd->nr_chans; i++)
			soft_dma_kick(&sd->chans[i]);
	mutex_unlock(&soft_dma_mutex);
	return 0;
}

/* Signed: debugfs_create_u32()'s simple_attr_write() parses unsigned only. */
static ssize_t soft_dma_stall_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[16];
	int ret, v;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = kstrtoint(strim(buf), 0, &v);
	if (!ret)
		ret = soft_dma_stall_set(v);
	return ret ? ret : count;
}

static ssize_t soft_dma_stall_read(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n",
			READ_ONCE(soft_dma_knobs.stall_channel));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations soft_dma_stall_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = soft_dma_stall_read,
	.write = soft_dma_stall_write,
	.llseek = default_llseek,
};

static int soft_dma_stats_show(struct seq_file *m, void *unused)
{
	struct soft_dma_dev *sd = m->private;
	unsigned int i;

	seq_puts(m, "channel prepared prep_failed pool_empty submitted completed errors aborted interrupts callbacks out_of_order bytes busy_ns\n");
	for (i = 0; i < sd->nr_chans; i++) {
		struct soft_dma_chan *sc = &sd->chans[i];
		struct soft_dma_stats s;

		spin_lock_irq(&sc->lock);
		s = sc->stats;
		spin_unlock_irq(&sc->lock);
		seq_printf(m, "%s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
			   sc->name, s.prepared, s.prep_failed, s.pool_empty,
			   s.submitted, s.completed, s.errors, s.aborted,
			   s.interrupts, s.callbacks, s.out_of_order, s.bytes,
			   s.busy_ns);
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

static int soft_dma_descs_get(void *data, u64 *val)
{
	*val = soft_dma_live_descs();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(soft_dma_descs_fops, soft_dma_descs_get, NULL,
			 "%llu\n");

/*
 * The device's directory, named after it, with its "stats" file: one per
 * bound device, so that a second one does not collide with the first.
 * Removed by the caller on unbind.
 */
struct dentry *soft_dma_debugfs_add_dev(struct soft_dma_dev *sd)
{
	struct dentry *dir = debugfs_create_dir(dev_name(&sd->pdev->dev),
						soft_dma_dir);

	debugfs_create_file("stats", 0644, dir, sd, &soft_dma_stats_fops);
	return dir;
}

void soft_dma_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir(SOFT_DMA_NAME, NULL);

	soft_dma_dir = dir;
	soft_dma_has_memcpy_sg = dma_bench_have_memcpy_sg();
	soft_dma_has_memcpy_vec = dma_bench_have_memcpy_vec();
	debugfs_create_bool("nocopy", 0644, dir, &soft_dma_knobs.nocopy);
	debugfs_create_u32("delay_us", 0644, dir, &soft_dma_knobs.delay_us);
	debugfs_create_u32("fail_prep_every", 0644, dir,
			   &soft_dma_knobs.fail_prep_every);
	debugfs_create_u32("error_every", 0644, dir,
			   &soft_dma_knobs.error_every);
	debugfs_create_file("stall_channel", 0644, dir, NULL,
			    &soft_dma_stall_fops);
	debugfs_create_file_unsafe("descriptors", 0444, dir, NULL,
				   &soft_dma_descs_fops);
	debugfs_create_bool("memcpy_sg", 0444, dir, &soft_dma_has_memcpy_sg);
	debugfs_create_bool("memcpy_vec", 0444, dir, &soft_dma_has_memcpy_vec);
}

void soft_dma_debugfs_exit(void)
{
	debugfs_remove_recursive(soft_dma_dir);
}
