//! The quantities a Prometheus mapping fills: the trace's host and GPU fields and the facts
//! describing a machine, each with its kind, and the units a query may name.

/// What a field holds, and so which units its query may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Bytes (`u64` in the trace).
    Bytes,
    /// Bytes per second.
    BytesPerSecond,
    /// Percent, 0–100.
    Percent,
    /// Events (pages, faults) per second.
    PerSecond,
    /// Watts.
    Watts,
    /// A count (`u64`).
    Count,
    /// Only the series' labels are read (the value is ignored).
    Labels,
}

/// The unit a query's values are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// The field's own unit (bytes, bytes/s, percent, watts, per second, count).
    Native,
    /// KiB (2^10 bytes), of a byte or byte-rate field.
    KiB,
    /// MiB (2^20 bytes): DCGM's framebuffer fields.
    MiB,
    /// GiB (2^30 bytes).
    GiB,
    /// KB (10^3 bytes): DCGM's older `PCIE_*_THROUGHPUT` fields.
    Kb,
    /// MB (10^6 bytes).
    Mb,
    /// A share 0–1, of a percent field (×100).
    Ratio,
    /// Milliwatts, of a watts field.
    Milliwatts,
}

impl Unit {
    pub(super) fn parse(text: &str) -> Option<Unit> {
        Some(match text {
            "" | "B" | "bytes" | "percent" | "W" | "count" | "per_s" => Unit::Native,
            "KiB" => Unit::KiB,
            "MiB" => Unit::MiB,
            "GiB" => Unit::GiB,
            "KB" => Unit::Kb,
            "MB" => Unit::Mb,
            "ratio" => Unit::Ratio,
            "mW" => Unit::Milliwatts,
            _ => return None,
        })
    }

    /// What a value in this unit is multiplied by to be in the field's unit.
    pub fn factor(self) -> f64 {
        match self {
            Unit::Native => 1.0,
            Unit::KiB => 1024.0,
            Unit::MiB => 1_048_576.0,
            Unit::GiB => 1_073_741_824.0,
            Unit::Kb => 1e3,
            Unit::Mb => 1e6,
            Unit::Ratio => 100.0,
            Unit::Milliwatts => 1e-3,
        }
    }

    pub(super) fn fits(self, kind: Kind) -> bool {
        match self {
            Unit::Native => true,
            Unit::KiB | Unit::MiB | Unit::GiB | Unit::Kb | Unit::Mb => {
                matches!(kind, Kind::Bytes | Kind::BytesPerSecond)
            }
            Unit::Ratio => kind == Kind::Percent,
            Unit::Milliwatts => kind == Kind::Watts,
        }
    }
}

/// The part of the mapping a field belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// `[host]`: the trace's `host` fields, one series per node.
    Host,
    /// `[gpu]`: the trace's `gpus[]` fields, one series per GPU.
    Gpu,
    /// `[machine]`: instant queries describing a node (fleet, a trace's machine).
    Machine,
}

impl Section {
    pub(super) fn name(self) -> &'static str {
        match self {
            Section::Host => "host",
            Section::Gpu => "gpu",
            Section::Machine => "machine",
        }
    }
}

macro_rules! fields {
    ($($variant:ident => ($section:ident, $key:literal, $kind:ident)),* $(,)?) => {
        /// A mapped quantity: a trace field or a fact about a machine.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(missing_docs)]
        pub enum Field { $($variant),* }

        impl Field {
            /// Every field, in the order of the default mapping.
            pub const ALL: &'static [Field] = &[$(Field::$variant),*];

            /// Its section.
            pub fn section(self) -> Section {
                match self { $(Field::$variant => Section::$section),* }
            }

            /// Its key inside the section (the trace's field name for host and GPU fields).
            pub fn key(self) -> &'static str {
                match self { $(Field::$variant => $key),* }
            }

            /// What it holds.
            pub fn kind(self) -> Kind {
                match self { $(Field::$variant => Kind::$kind),* }
            }
        }
    };
}

fields! {
    MemAvailable => (Host, "mem_available_bytes", Bytes),
    PageCache => (Host, "page_cache_bytes", Bytes),
    SwapUsed => (Host, "swap_used_bytes", Bytes),
    SwapIn => (Host, "swap_in_pages_per_s", PerSecond),
    SwapOut => (Host, "swap_out_pages_per_s", PerSecond),
    MajorFaults => (Host, "major_faults_per_s", PerSecond),
    PsiMemorySome => (Host, "psi_memory_some_avg10", Percent),
    PsiMemoryFull => (Host, "psi_memory_full_avg10", Percent),
    PsiIoSome => (Host, "psi_io_some_avg10", Percent),
    CpuBusy => (Host, "cpu_busy_percent", Percent),
    Iowait => (Host, "iowait_percent", Percent),
    KswapdCpu => (Host, "kswapd_cpu_percent", Percent),
    OomKills => (Host, "oom_kills_total", Count),
    CgroupOomKills => (Host, "cgroup_oom_kills_total", Count),
    CgroupMemUsed => (Host, "cgroup_mem_used_bytes", Bytes),
    ShmUsed => (Host, "shm_used_bytes", Bytes),
    ShmTotal => (Host, "shm_total_bytes", Bytes),
    DiskRead => (Host, "disk_read_bytes_per_s", BytesPerSecond),
    GpuUtil => (Gpu, "util_percent", Percent),
    GpuMemUsed => (Gpu, "mem_used_bytes", Bytes),
    GpuPower => (Gpu, "power_w", Watts),
    GpuPcieRx => (Gpu, "pcie_rx_bytes_per_s", BytesPerSecond),
    GpuPcieTx => (Gpu, "pcie_tx_bytes_per_s", BytesPerSecond),
    MemTotal => (Machine, "mem_total_bytes", Bytes),
    SwapTotal => (Machine, "swap_total_bytes", Bytes),
    LogicalCpus => (Machine, "logical_cpus", Count),
    FbUsed => (Machine, "gpu_fb_used_bytes", Bytes),
    FbFree => (Machine, "gpu_fb_free_bytes", Bytes),
    FbReserved => (Machine, "gpu_fb_reserved_bytes", Bytes),
    OsInfo => (Machine, "os_info", Labels),
    UnameInfo => (Machine, "uname_info", Labels),
}

impl Field {
    /// The field as the trace's JSON names it (`host.swap_used_bytes`, `gpus[].power_w`), or
    /// `machine.KEY` for machine facts: what outputs list as missing.
    pub fn path(self) -> String {
        match self.section() {
            Section::Host => format!("host.{}", self.key()),
            Section::Gpu => format!("gpus[].{}", self.key()),
            Section::Machine => format!("machine.{}", self.key()),
        }
    }
}
