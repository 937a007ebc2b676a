// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine as --system describes it: the CPU's name from /proc/cpuinfo
 * (x86, arm, arm64, a device tree model), and the JSON object, read from a
 * made-up /proc and /sys tree. With TEST_OUT_DIR set, writes system.json
 * (that tree's) and empty.json (a tree with nothing) for sysinfo.t.
 */
#include "sysinfo.h"
#include "tap.h"

/* files with NULs in them too: the device tree's model ends with one */
#define WRITE(path, text)	tree_write_n(path, text, sizeof(text) - 1)

static const char *model(const char *cpuinfo, const char *dt)
{
	static char buf[128];

	if (!cpu_model(cpuinfo, dt, buf, sizeof(buf)))
		return "(none)";
	return buf;
}

static void test_cpu_model(void)
{
	is_str(model("processor\t: 0\nvendor_id\t: GenuineIntel\n"
		     "cpu family\t: 6\nmodel\t\t: 85\n"
		     "model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz\n"
		     "cpu MHz\t\t: 2100.000\nprocessor\t: 1\n"
		     "model name\t: another\n", NULL),
	       "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz",
	       "x86: the first 'model name', not 'cpu family' or 'cpu MHz'");
	is_str(model("processor\t: 0\nBogoMIPS\t: 125.00\n"
		     "CPU implementer\t: 0x41\nCPU architecture: 8\n"
		     "CPU variant\t: 0x0\nCPU part\t: 0xd03\n", NULL),
	       "implementer 0x41 part 0xd03 variant 0x0",
	       "arm64 without a device tree model: implementer, part, variant");
	is_str(model("processor\t: 0\nCPU implementer\t: 0x41\n",
		     "Xilinx ZynqMP ZCU102 Rev1.0"),
	       "Xilinx ZynqMP ZCU102 Rev1.0",
	       "a device tree model before the implementer numbers");
	is_str(model("processor\t: 0\nmodel name\t: ARMv7 Processor rev 0 (v7l)\n"
		     "Hardware\t: Samsung Exynos\n", "board"),
	       "ARMv7 Processor rev 0 (v7l)", "arm: 'model name' first");
	is_str(model("Hardware\t: Samsung Exynos  \n", NULL), "Samsung Exynos",
	       "'Hardware', trailing blanks dropped");
	is_str(model("processor : 0\ncpu model : Loongson-3A5000\n", NULL),
	       "Loongson-3A5000", "'cpu model'");
	is_str(model("model name\t:\nModel\t: Raspberry Pi 4\n", NULL),
	       "Raspberry Pi 4", "an empty 'model name' gives way to 'Model'");
	is_str(model("processor\t: 0\n", NULL), "(none)", "nothing known: none");
	is_str(model(NULL, NULL), "(none)", "no /proc/cpuinfo: none");
}

static const char *system_text(void)
{
	static struct capture cap;

	report_system_json(capture_begin(&cap), tree_root);
	return capture_end(&cap);
}

static void test_system_json(void)
{
	const char *text;
	char want[512];

	tree_new();
	WRITE("/proc/cpuinfo", "processor\t: 0\nmodel name\t: Made-up CPU\n");
	WRITE("/proc/device-tree/model", "Made-up board\0");
	WRITE("/proc/cmdline", "console=ttyS0 maxcpus=2\n");
	WRITE("/sys/class/dmi/id/product_name", "Standard PC (Q35)\n");
	WRITE("/sys/class/iommu/dmar1/x", "");
	WRITE("/sys/class/iommu/dmar0/x", "");
	WRITE("/sys/devices/system/node/node10/cpulist", "2-3\n");
	WRITE("/sys/devices/system/node/node10/meminfo",
	      "Node 10 MemTotal:       1019000 kB\nNode 10 MemFree: 5 kB\n");
	WRITE("/sys/devices/system/node/node10/distance", "20 10\n");
	WRITE("/sys/devices/system/node/node2/cpulist", "0-1\n");
	WRITE("/sys/devices/system/node/node2/meminfo", "nothing\n");
	WRITE("/sys/devices/system/node/node2/distance", "10 20\n");
	WRITE("/sys/devices/system/node/possible", "2,10\n");
	text = system_text();
	tap_out_file("system.json", text);
	snprintf(want, sizeof(want), "{\"tool\":\"dma_map_benchmark\",\"version\":\"%s\",\"system\":{\"hostname\":",
		 tool_version);
	ok(!strncmp(text, want, strlen(want)),
	   "the object: tool, version, then system");
	has_str(text, "\"cpu_model\":\"Made-up CPU\"", "cpu_model from cpuinfo");
	has_str(text, "\"numa\":[{\"node\":2,\"cpulist\":\"0-1\",\"mem_total_kb\":null,\"distance\":[10,20]},{\"node\":10,\"cpulist\":\"2-3\",\"mem_total_kb\":1019000,\"distance\":[20,10]}]",
		"numa: the nodes by number, MemTotal or null, distances");
	has_str(text, "\"cmdline\":\"console=ttyS0 maxcpus=2\",\"dmi_product\":\"Standard PC (Q35)\",\"iommus\":[\"dmar0\",\"dmar1\"]}}\n",
		"cmdline and dmi_product without their newline, the iommus sorted; one line");

	tree_new();
	text = system_text();
	tap_out_file("empty.json", text);
	has_str(text, "\"cpu_model\":null,", "nothing there: cpu_model null");
	has_str(text, "\"numa\":[],", "no node directory: numa []");
	has_str(text, "\"cmdline\":null,\"dmi_product\":null,\"iommus\":[]}}",
		"no cmdline, DMI or IOMMU: null, null, []");

	tree_new();
	WRITE("/proc/cpuinfo", "CPU implementer\t: 0x41\nCPU part\t: 0xd08\n");
	WRITE("/proc/device-tree/model", "Made-up board\0");
	has_str(system_text(), "\"cpu_model\":\"Made-up board\"",
		"no model name: the device tree's model, without its NUL");
	tree_free();
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_cpu_model();
	test_system_json();
	return tap_done();
}
