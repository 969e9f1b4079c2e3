//! Machines as the exporters describe them: one profile per node from instant queries (the
//! mapping's `[machine]` section): RAM and swap size, logical CPUs, each GPU with its model,
//! driver and framebuffer size (DCGM's used + free + reserved), the OS and kernel. Everything
//! an exporter does not carry (memory modules, PCIe links, disks, `/dev/shm`, limits) stays
//! unknown, never zero.

use std::collections::BTreeMap;

use super::mapping::{Field, Mapping, Scope, Section};
use super::response::Series;
use super::{Client, PromError};
use crate::profile::limits::{MAX_GPUS, MAX_STRING_BYTES};
use crate::profile::{Gpu, GpuVendor, MachineProfile};

/// What `generated_by` says in a profile built from exporters.
pub const GENERATED_BY: &str = "Prometheus exporters (imported by ramvram)";

/// Most nodes in one fleet: 100,000 (as many as a Slurm inventory's profiles are assessed).
pub const MAX_NODES: usize = 100_000;

fn ask(
    client: &Client,
    mapping: &Mapping,
    scope: Scope<'_>,
    at: Option<f64>,
) -> Result<Vec<(Field, Vec<Series>)>, PromError> {
    let mut out = Vec::new();
    for field in Field::ALL
        .iter()
        .filter(|f| f.section() == Section::Machine)
    {
        if let Some(q) = mapping.query(*field) {
            let promql = mapping.render(&q.template, scope, super::mapping::MIN_RATE_WINDOW_S);
            out.push((*field, client.query(&promql, at)?.series));
        }
    }
    Ok(out)
}

/// The nodes the server knows: the node label's values of the mapping's `list` series (`up`),
/// ports removed when nodes match by host; sorted, each once.
///
/// # Errors
/// The request or its answer failed.
pub fn list_nodes(client: &Client, mapping: &Mapping) -> Result<Vec<String>, PromError> {
    let promql = mapping.render(&mapping.list, Scope::All, super::mapping::MIN_RATE_WINDOW_S);
    let mut nodes: Vec<String> = client
        .query(&promql, None)?
        .series
        .iter()
        .filter_map(|s| mapping.node_of(&s.labels))
        .filter(|n| n.len() <= MAX_STRING_BYTES)
        .collect();
    nodes.sort();
    nodes.dedup();
    nodes.truncate(MAX_NODES);
    Ok(nodes)
}

/// One node's profile at Unix time `at` (the server's now when `None`); a node the exporters
/// say nothing about gets a profile with only its name.
///
/// # Errors
/// A request or its answer failed.
pub fn node_profile(
    client: &Client,
    mapping: &Mapping,
    node: &str,
    at: Option<f64>,
) -> Result<MachineProfile, PromError> {
    let results = ask(client, mapping, Scope::Node(node), at)?;
    let mut profiles = build_profiles(&results, mapping);
    let key = mapping.node_key(node);
    Ok(match profiles.iter().position(|(n, _)| *n == key) {
        Some(i) => profiles.swap_remove(i).1,
        None if profiles.len() == 1 => profiles.remove(0).1,
        None => bare(&key),
    })
}

/// Every node with at least one fact, by name, at the server's now.
///
/// # Errors
/// A request or its answer failed.
pub fn fleet(
    client: &Client,
    mapping: &Mapping,
) -> Result<Vec<(String, MachineProfile)>, PromError> {
    let results = ask(client, mapping, Scope::All, None)?;
    Ok(build_profiles(&results, mapping))
}

fn bare(node: &str) -> MachineProfile {
    let mut p = MachineProfile::unknown();
    p.generated_by = Some(GENERATED_BY.to_string());
    p.host.hostname = Some(clip(node));
    p
}

fn clip(text: &str) -> String {
    if text.len() <= 256 {
        return text.to_string();
    }
    let mut end = 256;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// A whole, non-negative number of `unit`s in bytes (or a count), `None` otherwise.
fn whole(v: Option<f64>, factor: f64) -> Option<u64> {
    let v = v? * factor;
    (v.is_finite() && v >= 0.0 && v <= (1u64 << 62) as f64).then(|| v.round() as u64)
}

/// One GPU's facts as the framebuffer series give them.
#[derive(Default)]
struct GpuFacts {
    labels: BTreeMap<String, String>,
    used: Option<u64>,
    free: Option<u64>,
    reserved: Option<u64>,
}

/// Profiles from each machine field's series (pure; what [`fleet`] does once it has them),
/// sorted by node. A node appears when any series names it.
pub fn build_profiles(
    results: &[(Field, Vec<Series>)],
    mapping: &Mapping,
) -> Vec<(String, MachineProfile)> {
    let mut nodes: BTreeMap<String, MachineProfile> = BTreeMap::new();
    let mut gpus: BTreeMap<(String, u32), GpuFacts> = BTreeMap::new();
    // GPUs per node so far: the cap is checked in constant time, not by counting every key.
    let mut per_node: BTreeMap<String, usize> = BTreeMap::new();
    for (field, series) in results {
        let factor = mapping.query(*field).map_or(1.0, |q| q.unit.factor());
        let mut sorted: Vec<&Series> = series.iter().collect();
        sorted.sort_by(|a, b| a.labels.cmp(&b.labels));
        for s in sorted {
            let Some(node) = mapping.node_of(&s.labels).filter(|n| n.len() <= 256) else {
                continue;
            };
            if !nodes.contains_key(&node) && nodes.len() >= MAX_NODES {
                continue;
            }
            let p = nodes.entry(node.clone()).or_insert_with(|| bare(&node));
            let value = s.points.first().and_then(|p| p.1);
            let label = |name: &str| {
                s.labels
                    .get(name)
                    .filter(|v| !v.is_empty())
                    .map(|v| clip(v))
            };
            match field {
                Field::MemTotal => {
                    p.memory.total_bytes = p.memory.total_bytes.or(whole(value, factor))
                }
                Field::SwapTotal => {
                    p.memory.swap_total_bytes = p.memory.swap_total_bytes.or(whole(value, factor))
                }
                Field::LogicalCpus => {
                    p.cpu.logical_cpus = p.cpu.logical_cpus.or(whole(value, factor)
                        .and_then(|n| u32::try_from(n).ok())
                        .filter(|n| *n > 0));
                }
                Field::OsInfo => {
                    p.host.os = p.host.os.take().or_else(|| label("pretty_name"));
                }
                Field::UnameInfo => {
                    p.host.kernel = p.host.kernel.take().or_else(|| label("release"));
                    p.host.arch = p.host.arch.take().or_else(|| label("machine"));
                    if let Some(name) = label("nodename") {
                        p.host.hostname = Some(name);
                    }
                }
                Field::FbUsed | Field::FbFree | Field::FbReserved => {
                    let Some(index) = s
                        .labels
                        .get(&mapping.gpu_labels.index)
                        .and_then(|v| v.parse::<u32>().ok())
                    else {
                        continue;
                    };
                    let key = (node.clone(), index);
                    if !gpus.contains_key(&key) {
                        let count = per_node.entry(node.clone()).or_default();
                        if *count >= MAX_GPUS {
                            continue;
                        }
                        *count += 1;
                    }
                    let g = gpus.entry(key).or_default();
                    if g.labels.is_empty() {
                        g.labels = s.labels.clone();
                    }
                    let v = whole(value, factor);
                    let slot = match field {
                        Field::FbUsed => &mut g.used,
                        Field::FbFree => &mut g.free,
                        _ => &mut g.reserved,
                    };
                    *slot = slot.or(v);
                }
                _ => {}
            }
        }
    }
    for ((node, index), facts) in gpus {
        let Some(p) = nodes.get_mut(&node) else {
            continue;
        };
        let label = |name: &str| {
            facts
                .labels
                .get(name)
                .filter(|v| !v.is_empty())
                .map(|v| clip(v))
        };
        let total = match (facts.used, facts.free) {
            (Some(u), Some(f)) => u
                .checked_add(f)
                .and_then(|t| t.checked_add(facts.reserved.unwrap_or(0))),
            _ => None,
        };
        p.gpus.push(Gpu {
            index,
            // The DCGM exporter is NVIDIA's.
            vendor: GpuVendor::Nvidia,
            name: label(&mapping.gpu_labels.name),
            vram_total_bytes: total.filter(|t| *t > 0),
            vram_used_bytes: facts.used,
            driver_version: label(&mapping.gpu_labels.driver),
            pci_bus_id: label(&mapping.gpu_labels.bus_id),
            uuid: label(&mapping.gpu_labels.uuid),
            ..Gpu::unknown()
        });
    }
    nodes
        .into_iter()
        .map(|(node, mut p)| {
            // A server's labels are hostile text: one line each.
            crate::profile::strings::make_one_line(&mut p);
            (node, p)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::prometheus::response::parse_vector;

    fn vector(items: &[(&str, &str)]) -> Vec<Series> {
        let result: Vec<String> = items
            .iter()
            .map(|(labels, v)| format!("{{\"metric\":{labels},\"value\":[1717250400,\"{v}\"]}}"))
            .collect();
        let body = format!(
            "{{\"status\":\"success\",\"data\":{{\"resultType\":\"vector\",\"result\":[{}]}}}}",
            result.join(",")
        );
        parse_vector(body.as_bytes()).unwrap().series
    }

    #[test]
    fn exporters_fill_what_they_know_and_the_rest_stays_unknown() {
        let m = Mapping::defaults();
        let a100 = r#""modelName":"NVIDIA A100-SXM4-80GB","DCGM_FI_DRIVER_VERSION":"550.54.15","UUID":"GPU-1""#;
        let results = vec![
            (
                Field::MemTotal,
                vector(&[
                    (r#"{"instance":"gpu07:9100"}"#, "540000000000"),
                    (r#"{"instance":"cpu01:9100"}"#, "67108864000"),
                ]),
            ),
            (
                Field::LogicalCpus,
                vector(&[(r#"{"instance":"gpu07:9100"}"#, "128")]),
            ),
            (
                Field::FbUsed,
                vector(&[
                    (
                        &format!(r#"{{"instance":"gpu07:9400","gpu":"0",{a100}}}"#),
                        "1024",
                    ),
                    (
                        &format!(r#"{{"instance":"gpu07:9400","gpu":"1",{a100}}}"#),
                        "0",
                    ),
                ]),
            ),
            (
                Field::FbFree,
                vector(&[
                    (r#"{"instance":"gpu07:9400","gpu":"0"}"#, "79000"),
                    (r#"{"instance":"gpu07:9400","gpu":"1"}"#, "NaN"),
                ]),
            ),
            (
                Field::FbReserved,
                vector(&[(r#"{"instance":"gpu07:9400","gpu":"0"}"#, "1126")]),
            ),
            (
                Field::UnameInfo,
                vector(&[(
                    r#"{"instance":"gpu07:9100","nodename":"gpu07.lab","release":"6.1.0-18-amd64","machine":"x86_64"}"#,
                    "1",
                )]),
            ),
        ];
        let fleet = build_profiles(&results, &m);
        let names: Vec<&str> = fleet.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["cpu01", "gpu07"]);
        let gpu07 = &fleet[1].1;
        assert_eq!(gpu07.memory.total_bytes, Some(540_000_000_000));
        assert_eq!(gpu07.cpu.logical_cpus, Some(128));
        assert_eq!(gpu07.host.hostname.as_deref(), Some("gpu07.lab"));
        assert_eq!(gpu07.host.kernel.as_deref(), Some("6.1.0-18-amd64"));
        assert_eq!(gpu07.gpus.len(), 2);
        let g0 = &gpu07.gpus[0];
        // (1024 + 79000 + 1126) MiB = 81150 × 1048576 bytes.
        assert_eq!(g0.vram_total_bytes, Some(81_150 * 1_048_576));
        assert_eq!(g0.vram_used_bytes, Some(1_073_741_824));
        assert_eq!(g0.name.as_deref(), Some("NVIDIA A100-SXM4-80GB"));
        assert_eq!(g0.driver_version.as_deref(), Some("550.54.15"));
        // GPU 1's free memory was NaN: its total is unknown, not its used memory alone.
        assert_eq!(gpu07.gpus[1].vram_total_bytes, None);
        assert_eq!(gpu07.gpus[1].vram_used_bytes, Some(0));
        // What exporters don't carry stays unknown, never zero.
        assert_eq!(gpu07.cpu.physical_cores, None);
        assert_eq!(gpu07.memory.swap_total_bytes, None);
        assert_eq!(gpu07.memory.shm_bytes, None);
        assert_eq!(gpu07.memory.limit_bytes, None);
        assert!(gpu07.memory.dimms.is_empty());
        assert!(g0.pcie.is_none());
        let cpu01 = &fleet[0].1;
        assert_eq!(cpu01.host.hostname.as_deref(), Some("cpu01"));
        assert!(cpu01.gpus.is_empty());
        assert_eq!(cpu01.cpu.logical_cpus, None);
        assert_eq!(cpu01.generated_by.as_deref(), Some(GENERATED_BY));
    }

    #[test]
    fn hostile_values_stay_unknown() {
        let m = Mapping::defaults();
        let results = vec![
            (
                Field::MemTotal,
                vector(&[
                    (r#"{"instance":"a:9100"}"#, "-5"),
                    (r#"{"instance":"b:9100"}"#, "1e300"),
                    (r#"{"instance":""}"#, "1"),
                    (r#"{"job":"x"}"#, "1"),
                ]),
            ),
            (
                Field::LogicalCpus,
                vector(&[(r#"{"instance":"a:9100"}"#, "0")]),
            ),
        ];
        let fleet = build_profiles(&results, &m);
        assert_eq!(fleet.len(), 2);
        assert!(fleet.iter().all(|(_, p)| p.memory.total_bytes.is_none()));
        assert_eq!(fleet[0].1.cpu.logical_cpus, None);
    }
}
