/*
 * A stand-in for NVIDIA's NVML library (libnvidia-ml.so.1 / nvml.dll), for tests only: it is
 * built by tests/nvml_standin.rs and never shipped. It implements the NVML entry points that
 * nvml-wrapper 0.13 and ramvram call, with the signatures and return codes of nvml.h, and
 * answers from a scenario file of `key = value` lines:
 *
 *   init = 18                 nvmlInit_v2's return code (18: LIB_RM_VERSION_MISMATCH)
 *   driver = 550.54.15        nvmlSystemGetDriverVersion
 *   count = 8                 nvmlDeviceGetCount_v2 (may exceed the devices described)
 *   all.rc = 999              every call after init returns this code
 *   garbage_strings = 1       string calls fill the whole buffer, with no terminator
 *   device.N.KEY = VALUE      a value for device N; device.*.KEY for every device
 *   device.N.KEY.rc = CODE    the call's return code (default: 0 with a value, else
 *                             3, NOT_SUPPORTED)
 *   device.N.lost_after = K   after K calls on device N, everything returns 15 (GPU_IS_LOST)
 *   touch_log = PATH          every call on a device appends "device N KEY" to PATH
 *
 * KEYs: name, uuid, bus_id, index, mem_total, mem_used, mem_free, mem_reserved (v2), mem_v2
 * and mem_v1 (return codes only), gen_current, gen_max, gen_gpu_max, width_current,
 * width_max, util_gpu, util_mem, power_mw, tx_kb, rx_kb, mig_current, mig_pending;
 * procs (the compute processes' count), proc.K.pid and proc.K.used (bytes; -1 for
 * NVML_VALUE_NOT_AVAILABLE).
 *   process.PID.name = TEXT   nvmlSystemGetProcessName (process.PID.name.rc for its code;
 *                             no entry: NOT_FOUND)
 *
 * The scenario file is $NVML_STANDIN_SCENARIO, else the path compiled in as SCENARIO_PATH.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#define EXPORT __declspec(dllexport)
#define strcasecmp _stricmp
#else
#include <strings.h>
#define EXPORT __attribute__((visibility("default")))
#endif

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;

enum {
    OK = 0, UNINITIALIZED = 1, INVALID_ARGUMENT = 2, NOT_SUPPORTED = 3, NOT_FOUND = 6,
    INSUFFICIENT_SIZE = 7, GPU_IS_LOST = 15
};

/* nvml.h's structures, with its layouts. */
typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef struct {
    unsigned int version;
    unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;
typedef struct { unsigned int gpu, memory; } nvmlUtilization_t;
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t;
typedef struct {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;

#define MAX_DEVICES 64
#define MAX_LINES 4096
struct nvmlDevice_st { int n; long calls; };
static struct nvmlDevice_st devices[MAX_DEVICES];

static char *text;
static char *keys[MAX_LINES], *values[MAX_LINES];
static int lines, loaded, initialised;

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) *--e = 0;
    return s;
}

static void load(void) {
    if (loaded) return;
    loaded = 1;
    for (int i = 0; i < MAX_DEVICES; i++) devices[i].n = i;
    const char *path = getenv("NVML_STANDIN_SCENARIO");
#ifdef SCENARIO_PATH
    if (!path || !*path) path = SCENARIO_PATH;
#endif
    if (!path) return;
    FILE *f = fopen(path, "rb");
    if (!f) return;
    text = calloc(1, 1 << 20);
    size_t len = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    for (char *line = text; text && line < text + len && lines < MAX_LINES;) {
        char *end = strchr(line, '\n');
        if (end) *end = 0;
        char *eq = strchr(line, '=');
        if (*trim(line) != '#' && eq) {
            *eq = 0;
            keys[lines] = trim(line);
            values[lines] = trim(eq + 1);
            lines++;
        }
        if (!end) break;
        line = end + 1;
    }
}

static const char *get(const char *key) {
    load();
    for (int i = lines - 1; i >= 0; i--)
        if (strcmp(keys[i], key) == 0) return values[i];
    return NULL;
}

static long long number(const char *key, long long fallback) {
    const char *v = get(key);
    return v ? strtoll(v, NULL, 0) : fallback;
}

/* A device's value: device.N.KEY, else device.*.KEY. */
static const char *dev_get(int n, const char *key) {
    char k[128];
    snprintf(k, sizeof k, "device.%d.%s", n, key);
    const char *v = get(k);
    if (v) return v;
    snprintf(k, sizeof k, "device.*.%s", key);
    return get(k);
}

static long long dev_number(int n, const char *key) {
    const char *v = dev_get(n, key);
    return v ? strtoll(v, NULL, 0) : 0;
}

/* The return code of a device query: lost, the forced code, the scenario's, or by value. */
static nvmlReturn_t dev_rc(nvmlDevice_t d, const char *key) {
    if (!initialised) return UNINITIALIZED;
    if (get("all.rc")) return (nvmlReturn_t)number("all.rc", 0);
    if (!d || d < devices || d >= devices + MAX_DEVICES) return INVALID_ARGUMENT;
    d->calls++;
    const char *log = get("touch_log");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fprintf(f, "device %d %s\n", d->n, key);
        fclose(f);
    }
    const char *lost = dev_get(d->n, "lost_after");
    if (lost && d->calls > strtoll(lost, NULL, 0)) return GPU_IS_LOST;
    char k[128];
    snprintf(k, sizeof k, "%s.rc", key);
    const char *rc = dev_get(d->n, k);
    if (rc) return (nvmlReturn_t)strtol(rc, NULL, 0);
    return dev_get(d->n, key) ? OK : NOT_SUPPORTED;
}

static void put_string(char *out, unsigned int length, const char *value) {
    if (!out || length == 0) return;
    if (number("garbage_strings", 0)) {
        memset(out, 'A', length); /* no terminator anywhere */
        out[0] = (char)0xff;      /* and not UTF-8 */
        return;
    }
    snprintf(out, length, "%s", value ? value : "");
}

static nvmlReturn_t uint_query(nvmlDevice_t d, const char *key, unsigned int *out) {
    nvmlReturn_t rc = dev_rc(d, key);
    if (rc == OK && out) *out = (unsigned int)dev_number(d->n, key);
    return rc;
}

EXPORT nvmlReturn_t nvmlInit_v2(void) {
    nvmlReturn_t rc = (nvmlReturn_t)number("init", 0);
    initialised = rc == OK;
    return rc;
}
EXPORT nvmlReturn_t nvmlInitWithFlags(unsigned int flags) { (void)flags; return nvmlInit_v2(); }
EXPORT nvmlReturn_t nvmlShutdown(void) { initialised = 0; return OK; }
EXPORT const char *nvmlErrorString(nvmlReturn_t r) {
    switch (r) {
    case OK: return "Success";
    case NOT_SUPPORTED: return "Not Supported";
    case GPU_IS_LOST: return "GPU is lost";
    case 18: return "RM has detected an NVML/RM version mismatch.";
    default: return "Unknown Error";
    }
}

EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    if (!initialised) return UNINITIALIZED;
    if (get("all.rc")) return (nvmlReturn_t)number("all.rc", 0);
    if (get("driver.rc")) return (nvmlReturn_t)number("driver.rc", 0);
    if (!get("driver")) return NOT_SUPPORTED;
    put_string(version, length, get("driver"));
    return OK;
}
EXPORT nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length) {
    if (!initialised) return UNINITIALIZED;
    put_string(version, length, "12.550.54.15");
    return OK;
}

EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
    if (!initialised) return UNINITIALIZED;
    if (get("all.rc")) return (nvmlReturn_t)number("all.rc", 0);
    if (!count) return INVALID_ARGUMENT;
    *count = (unsigned int)number("count", 0);
    return OK;
}

EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    if (!initialised) return UNINITIALIZED;
    if (get("all.rc")) return (nvmlReturn_t)number("all.rc", 0);
    if (!device || index >= MAX_DEVICES || index >= (unsigned long long)number("count", 0))
        return INVALID_ARGUMENT;
    nvmlReturn_t rc = dev_rc(&devices[index], "handle");
    if (rc == NOT_SUPPORTED) rc = OK; /* no handle.rc in the scenario: the handle is fine */
    if (rc == OK) *device = &devices[index];
    return rc;
}

EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, nvmlDevice_t *device) {
    if (!initialised) return UNINITIALIZED;
    if (get("all.rc")) return (nvmlReturn_t)number("all.rc", 0);
    if (!bus_id || !device) return INVALID_ARGUMENT;
    long long count = number("count", 0);
    for (int i = 0; i < MAX_DEVICES && i < count; i++) {
        const char *b = dev_get(i, "bus_id");
        /* sysfs writes 0000:18:00.0, NVML 00000000:18:00.0: compare after the domain. */
        const char *tail = b ? strchr(b, ':') : NULL, *want = strchr(bus_id, ':');
        if (tail && want && strcasecmp(tail, want) == 0) {
            *device = &devices[i];
            return dev_rc(*device, "handle") == GPU_IS_LOST ? GPU_IS_LOST : OK;
        }
    }
    return NOT_FOUND;
}

EXPORT nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t d, unsigned int *index) {
    return uint_query(d, "index", index);
}

/* Windows: nvmlDriverModel_t (0 WDDM, 1 WDM, which NVIDIA calls TCC), current and pending. */
EXPORT nvmlReturn_t nvmlDeviceGetDriverModel(nvmlDevice_t d, unsigned int *current,
                                             unsigned int *pending) {
    nvmlReturn_t rc = dev_rc(d, "driver_model");
    if (rc == OK) {
        unsigned int m = (unsigned int)dev_number(d->n, "driver_model");
        if (current) *current = m;
        if (pending) *pending = m;
    }
    return rc;
}

EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int length) {
    nvmlReturn_t rc = dev_rc(d, "name");
    if (rc == OK) put_string(name, length, dev_get(d->n, "name"));
    return rc;
}

EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned int length) {
    nvmlReturn_t rc = dev_rc(d, "uuid");
    if (rc == OK) put_string(uuid, length, dev_get(d->n, "uuid"));
    return rc;
}

EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *pci) {
    nvmlReturn_t rc = dev_rc(d, "bus_id");
    if (rc != OK || !pci) return rc;
    memset(pci, 0, sizeof *pci);
    const char *b = dev_get(d->n, "bus_id");
    put_string(pci->busId, sizeof pci->busId, b);
    unsigned int domain = 0, bus = 0, dev = 0;
    if (b) sscanf(b, "%x:%x:%x", &domain, &bus, &dev);
    pci->domain = domain;
    pci->bus = bus;
    pci->device = dev;
    return OK;
}

static nvmlReturn_t memory_rc(nvmlDevice_t d, const char *call) {
    nvmlReturn_t rc = dev_rc(d, call);
    if (rc == NOT_SUPPORTED && dev_get(d->n, call) == NULL) {
        /* No return code of its own for this call: by whether a total is described. */
        char k[32];
        snprintf(k, sizeof k, "%s.rc", call);
        if (!dev_get(d->n, k)) rc = dev_get(d->n, "mem_total") ? OK : NOT_SUPPORTED;
    }
    return rc;
}

EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m) {
    nvmlReturn_t rc = memory_rc(d, "mem_v1");
    if (rc != OK || !m) return rc;
    m->total = (unsigned long long)dev_number(d->n, "mem_total");
    m->used = (unsigned long long)dev_number(d->n, "mem_used");
    m->free = (unsigned long long)dev_number(d->n, "mem_free");
    return OK;
}

EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, nvmlMemory_v2_t *m) {
    if (!m) return INVALID_ARGUMENT;
    /* nvml.h: nvmlMemory_v2 = NVML_STRUCT_VERSION(Memory, 2) = sizeof | 2 << 24. */
    if (m->version != ((unsigned int)sizeof(nvmlMemory_v2_t) | (2u << 24))) return 25;
    nvmlReturn_t rc = memory_rc(d, "mem_v2");
    if (rc != OK) return rc;
    m->total = (unsigned long long)dev_number(d->n, "mem_total");
    m->reserved = (unsigned long long)dev_number(d->n, "mem_reserved");
    m->used = (unsigned long long)dev_number(d->n, "mem_used");
    m->free = (unsigned long long)dev_number(d->n, "mem_free");
    return OK;
}

EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned int *v) {
    return uint_query(d, "gen_current", v);
}
EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned int *v) {
    return uint_query(d, "gen_max", v);
}
EXPORT nvmlReturn_t nvmlDeviceGetGpuMaxPcieLinkGeneration(nvmlDevice_t d, unsigned int *v) {
    return uint_query(d, "gen_gpu_max", v);
}
EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned int *v) {
    return uint_query(d, "width_current", v);
}
EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned int *v) {
    return uint_query(d, "width_max", v);
}
EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *v) {
    return uint_query(d, "power_mw", v);
}

EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u) {
    nvmlReturn_t rc = dev_rc(d, "util_gpu");
    if (rc != OK || !u) return rc;
    u->gpu = (unsigned int)dev_number(d->n, "util_gpu");
    u->memory = (unsigned int)dev_number(d->n, "util_mem");
    return OK;
}

/* counter: NVML_PCIE_UTIL_TX_BYTES = 0, NVML_PCIE_UTIL_RX_BYTES = 1. */
EXPORT nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t d, int counter, unsigned int *v) {
    return uint_query(d, counter == 0 ? "tx_kb" : "rx_kb", v);
}

EXPORT nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int *current,
                                         unsigned int *pending) {
    nvmlReturn_t rc = uint_query(d, "mig_current", current);
    if (rc == OK && pending) *pending = (unsigned int)dev_number(d->n, "mig_pending");
    return rc;
}

/* The count first (a buffer too small, or none: INSUFFICIENT_SIZE with the count), then the
 * list, as nvml.h documents nvmlDeviceGetComputeRunningProcesses_v3. */
EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned int *count,
                                                            nvmlProcessInfo_t *infos) {
    nvmlReturn_t rc = dev_rc(d, "procs");
    if (rc != OK) return rc;
    if (!count) return INVALID_ARGUMENT;
    unsigned int n = (unsigned int)dev_number(d->n, "procs");
    if (n == 0) {
        *count = 0;
        return OK;
    }
    if (!infos || *count < n) {
        *count = n;
        return INSUFFICIENT_SIZE;
    }
    for (unsigned int i = 0; i < n; i++) {
        char k[64];
        snprintf(k, sizeof k, "proc.%u.pid", i);
        infos[i].pid = (unsigned int)dev_number(d->n, k);
        snprintf(k, sizeof k, "proc.%u.used", i);
        infos[i].usedGpuMemory = (unsigned long long)dev_number(d->n, k);
        infos[i].gpuInstanceId = 0xFFFFFFFFu;
        infos[i].computeInstanceId = 0xFFFFFFFFu;
    }
    *count = n;
    return OK;
}

EXPORT nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name, unsigned int length) {
    if (!initialised) return UNINITIALIZED;
    if (get("all.rc")) return (nvmlReturn_t)number("all.rc", 0);
    char k[64];
    snprintf(k, sizeof k, "process.%u.name.rc", pid);
    if (get(k)) return (nvmlReturn_t)number(k, 0);
    snprintf(k, sizeof k, "process.%u.name", pid);
    if (!get(k)) return NOT_FOUND;
    put_string(name, length, get(k));
    return OK;
}
