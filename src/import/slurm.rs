//! Slurm inventory import: `scontrol show node --json` → one profile per node, GPUs from the
//! GRES string mapped to VRAM through the catalogue. Nothing runs on the nodes.
//!
//! Fields used (Slurm's JSON output, data_parser v0.0.39 and later): `nodes[].name`,
//! `hostname`, `real_memory` (RealMemory, MiB — Slurm's "megabytes" are 2^20 bytes), `gres`
//! (`gpu:a100:8(S:0-1)`, `gpu:4`, or a comma list), `cpus`, `cores` (per socket), `sockets`,
//! `architecture`, `operating_system`.

use std::path::Path;

use serde::Deserialize;

use crate::catalog::{GpuModel, catalog};
use crate::profile::{Cpu, Host, MachineProfile, Note, NoteId, Problem, ProfileError};

#[derive(Debug, Deserialize)]
struct ScontrolNodes {
    nodes: Vec<SlurmNode>,
}

#[derive(Debug, Deserialize)]
struct SlurmNode {
    name: String,
    #[serde(default)]
    hostname: Option<String>,
    #[serde(default)]
    real_memory: Option<u64>,
    #[serde(default)]
    gres: Option<String>,
    #[serde(default)]
    cpus: Option<u32>,
    #[serde(default)]
    cores: Option<u32>,
    #[serde(default)]
    sockets: Option<u32>,
    #[serde(default)]
    architecture: Option<String>,
    #[serde(default)]
    operating_system: Option<String>,
}

/// One `gpu` entry of a GRES string: type (when given) and count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GresGpu {
    /// `a100` in `gpu:a100:8`; `None` in `gpu:8`.
    pub kind: Option<String>,
    /// How many.
    pub count: u32,
}

/// Parses the GPU entries of a GRES string (`gpu:a100:8(S:0-1),gpu:v100:2`, `gpu:4`); other
/// resources (`shard`, `mps`) are skipped.
pub fn parse_gres(gres: &str) -> Vec<GresGpu> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    let bytes: Vec<char> = gres.chars().collect();
    let mut items = Vec::new();
    for (i, c) in bytes.iter().enumerate() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(bytes[start..i].iter().collect::<String>());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(bytes[start..].iter().collect::<String>());
    for item in items {
        let item = item.split('(').next().unwrap_or("").trim();
        let parts: Vec<&str> = item.split(':').collect();
        if parts.first() != Some(&"gpu") {
            continue;
        }
        let entry = match parts.as_slice() {
            ["gpu", count] => count
                .parse()
                .ok()
                .map(|count| GresGpu { kind: None, count }),
            ["gpu", kind, count, ..] => count.parse().ok().map(|count| GresGpu {
                kind: Some(kind.to_string()),
                count,
            }),
            _ => None,
        };
        out.extend(entry.filter(|e| e.count > 0));
    }
    out
}

/// Most nodes read from one inventory: 200,000. Assumption: the largest Slurm clusters have
/// tens of thousands of nodes; the cap bounds memory (a few KB per node) and time.
pub const MAX_NODES: usize = 200_000;

/// Most GPUs read from one inventory, all nodes together: 500,000. Assumption: the largest
/// clusters have a few hundred thousand; the cap bounds the profiles built from it (a few hundred
/// bytes a GPU), which a per-node cap alone does not: 20,000 nodes of 1,024 GPUs each are 20
/// million GPUs from a 1.3 MB file.
pub const MAX_INVENTORY_GPUS: u64 = 500_000;

/// Checks one node against the profile caps (string lengths, GPUs per node). Returns the field
/// under `nodes[i]` and what is wrong.
fn check_node(node: &SlurmNode, gpus: &[GresGpu]) -> Result<(), (String, Problem)> {
    use crate::profile::limits::{MAX_GPUS, MAX_STRING_BYTES};
    for (field, value) in [
        ("name", Some(&node.name)),
        ("hostname", node.hostname.as_ref()),
        ("gres", node.gres.as_ref()),
        ("architecture", node.architecture.as_ref()),
        ("operating_system", node.operating_system.as_ref()),
    ] {
        if value.is_some_and(|v| v.len() > MAX_STRING_BYTES) {
            return Err((
                field.to_string(),
                Problem::TooLong {
                    max: MAX_STRING_BYTES,
                },
            ));
        }
    }
    let total: u64 = gpus.iter().map(|g| u64::from(g.count)).sum();
    if total > MAX_GPUS as u64 {
        return Err((
            "gres".to_string(),
            Problem::TooMany {
                count: usize::try_from(total).unwrap_or(usize::MAX),
                max: MAX_GPUS,
            },
        ));
    }
    Ok(())
}

/// A node's profile. GPUs whose type the catalogue does not know keep `vram_total_bytes: null`
/// and get a `gpu-type-unknown` note: the node is shown with VRAM unknown, not dropped.
fn node_profile(
    node: &SlurmNode,
    gres: Vec<GresGpu>,
    model_of: &mut dyn FnMut(&str) -> Option<&'static GpuModel>,
) -> MachineProfile {
    let mut p = MachineProfile::unknown();
    p.generated_by = Some("Slurm scontrol show node --json (imported by ramvram)".into());
    p.host = Host {
        hostname: Some(node.hostname.clone().unwrap_or_else(|| node.name.clone())),
        os: node.operating_system.clone(),
        kernel: None,
        arch: node.architecture.clone(),
        platform: None,
    };
    p.cpu = Cpu {
        model: None,
        physical_cores: node
            .cores
            .zip(node.sockets)
            .and_then(|(c, s)| c.checked_mul(s))
            .filter(|n| *n > 0),
        logical_cpus: node.cpus.filter(|n| *n > 0),
    };
    // MiB to bytes; an impossible value (overflow, 0) stays unknown.
    p.memory.total_bytes = node
        .real_memory
        .filter(|m| *m > 0)
        .and_then(|m| m.checked_mul(1 << 20))
        .filter(|b| *b <= 1 << 50);
    for g in gres {
        let model = g.kind.as_deref().and_then(&mut *model_of);
        if model.is_none() {
            p.notes.push(Note {
                id: NoteId::GpuTypeUnknown,
                detail: Some(format!(
                    "gpu:{}:{}",
                    g.kind.as_deref().unwrap_or("?"),
                    g.count
                )),
            });
        }
        for _ in 0..g.count {
            let index = p.gpus.len() as u32;
            p.gpus
                .push(GpuModel::profile_gpu(model, index, g.kind.clone()));
        }
    }
    // An inventory's names are hostile text: one line each.
    crate::profile::strings::make_one_line(&mut p);
    p
}

/// A parsed inventory whose every node passed the caps; profiles are built one at a time
/// ([`Inventory::into_profiles`]), so a 100,000-node cluster can be assessed and printed without
/// holding 100,000 profiles at once.
pub struct Inventory {
    nodes: Vec<(SlurmNode, Vec<GresGpu>)>,
}

impl Inventory {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the inventory lists no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Each node's host name as its profile will carry it (`hostname`, else `name`), in order.
    pub fn hostnames(&self) -> impl Iterator<Item = &str> {
        self.nodes
            .iter()
            .map(|(n, _)| n.hostname.as_deref().unwrap_or(&n.name))
    }

    /// The nodes' profiles, in order, built as they are taken (each GPU type is looked up in
    /// the catalogue once).
    pub fn into_profiles(self) -> impl Iterator<Item = MachineProfile> {
        let mut models = GpuModels::default();
        self.nodes
            .into_iter()
            .map(move |(node, gres)| node_profile(&node, gres, &mut |k| models.get(k)))
    }

    /// Node `i`'s profile (`i` < [`Inventory::len`]), built now; `models` remembers each GPU
    /// type's catalogue row between calls. For a report that takes the nodes in another order
    /// than the file's (by name), one at a time.
    ///
    /// # Panics
    /// When `i` is out of range.
    pub fn profile(&self, i: usize, models: &mut GpuModels) -> MachineProfile {
        let (node, gres) = &self.nodes[i];
        node_profile(node, gres.clone(), &mut |k| models.get(k))
    }
}

/// The catalogue's row for each GPU type met so far (`None`: not in the catalogue), so that an
/// inventory's types are each looked up once.
#[derive(Default)]
pub struct GpuModels(std::collections::HashMap<String, Option<&'static GpuModel>>);

impl GpuModels {
    fn get(&mut self, kind: &str) -> Option<&'static GpuModel> {
        if let Some(m) = self.0.get(kind) {
            return *m;
        }
        let m = catalog().gpu(kind);
        self.0.insert(kind.to_string(), m);
        m
    }
}

/// Reads `scontrol show node --json` output (`-` for standard input; a regular file of at most
/// [`crate::fsutil::MAX_SLURM_BYTES`]).
///
/// # Errors
/// The file and field of a read or parse error.
pub fn import(path: &Path) -> Result<Vec<MachineProfile>, ProfileError> {
    Ok(read_inventory(path)?.into_profiles().collect())
}

/// [`import`] without building the profiles yet.
///
/// # Errors
/// As [`import`].
pub fn read_inventory(path: &Path) -> Result<Inventory, ProfileError> {
    let text = crate::fsutil::read_input_string(path, crate::fsutil::MAX_SLURM_BYTES)
        .map_err(|e| ProfileError::read(path, &e))?;
    parse_inventory(&text, path)
}

/// Parses `scontrol show node --json` text into profiles; `path` is used only in error
/// messages.
///
/// # Errors
/// As [`parse_inventory`].
pub fn parse(text: &str, path: &Path) -> Result<Vec<MachineProfile>, ProfileError> {
    Ok(parse_inventory(text, path)?.into_profiles().collect())
}

/// Parses and checks `scontrol show node --json` text; `path` is used only in error messages.
///
/// # Errors
/// [`ProfileError::Parse`] for bad JSON; [`ProfileError::Invalid`] naming `nodes[i].FIELD` for
/// a node past a cap (more than [`MAX_NODES`] nodes, a string over 4 KiB, more than 1,024 GPUs,
/// or the node whose GPUs take the inventory past [`MAX_INVENTORY_GPUS`]). A leading
/// byte-order mark is skipped.
pub fn parse_inventory(text: &str, path: &Path) -> Result<Inventory, ProfileError> {
    // Slurm writes dozens of fields ramvram does not use: no list of ignored fields is kept.
    let text = crate::profile::json::without_bom(text);
    // Read without tracking the path (a third of the time on 100,000 nodes), and again with it
    // only to name the place of an error.
    let doc: ScontrolNodes = match serde_json::from_str(text) {
        Ok(doc) => doc,
        Err(_) => {
            let mut json = serde_json::Deserializer::from_str(text);
            let doc: ScontrolNodes = serde_path_to_error::deserialize(&mut json)
                .map_err(|e| ProfileError::parse(path, &e.path().to_string(), e.inner()))?;
            json.end().map_err(|e| ProfileError::parse(path, ".", &e))?;
            doc
        }
    };
    let invalid = |field: String, problem: Problem| ProfileError::Invalid {
        path: path.to_path_buf(),
        field,
        problem: Box::new(problem),
    };
    if doc.nodes.len() > MAX_NODES {
        return Err(invalid(
            "nodes".into(),
            Problem::TooMany {
                count: doc.nodes.len(),
                max: MAX_NODES,
            },
        ));
    }
    let mut nodes = Vec::with_capacity(doc.nodes.len());
    let mut gpus_so_far: u64 = 0;
    for (i, node) in doc.nodes.into_iter().enumerate() {
        let gres = parse_gres(node.gres.as_deref().unwrap_or(""));
        check_node(&node, &gres)
            .map_err(|(field, problem)| invalid(format!("nodes[{i}].{field}"), problem))?;
        // Within the per-node cap (checked above), so the sum can't overflow.
        gpus_so_far += gres.iter().map(|g| u64::from(g.count)).sum::<u64>();
        if gpus_so_far > MAX_INVENTORY_GPUS {
            return Err(invalid(
                format!("nodes[{i}].gres"),
                Problem::TooMany {
                    count: usize::try_from(gpus_so_far).unwrap_or(usize::MAX),
                    max: MAX_INVENTORY_GPUS as usize,
                },
            ));
        }
        nodes.push((node, gres));
    }
    Ok(Inventory { nodes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpus_are_capped_per_inventory_and_a_bom_is_skipped() {
        // 600 nodes of 1,000 GPUs: after 500 nodes, 500,000 (the cap); node 500 (the 501st)
        // takes it to 501,000.
        let nodes: Vec<String> = (0..600)
            .map(|i| format!(r#"{{"name":"n{i}","gres":"gpu:h100:1000"}}"#))
            .collect();
        let text = format!("\u{feff}{{\"nodes\":[{}]}}", nodes.join(","));
        let Err(e) = parse_inventory(&text, Path::new("nodes.json")) else {
            panic!("600,000 GPUs were read");
        };
        assert_eq!(
            e,
            ProfileError::Invalid {
                path: "nodes.json".into(),
                field: "nodes[500].gres".into(),
                problem: Box::new(Problem::TooMany {
                    count: 501_000,
                    max: 500_000
                }),
            }
        );
        // 500 nodes: exactly the cap, read (through the byte-order mark).
        let text = format!("\u{feff}{{\"nodes\":[{}]}}", nodes[..500].join(","));
        assert_eq!(
            parse_inventory(&text, Path::new("nodes.json"))
                .unwrap()
                .len(),
            500
        );
    }

    #[test]
    fn gres_strings() {
        assert_eq!(
            parse_gres("gpu:a100:8(S:0-1)"),
            vec![GresGpu {
                kind: Some("a100".into()),
                count: 8
            }]
        );
        assert_eq!(
            parse_gres("gpu:4"),
            vec![GresGpu {
                kind: None,
                count: 4
            }]
        );
        assert_eq!(
            parse_gres("gpu:a100:4(S:0,1),gpu:v100:2,shard:8"),
            vec![
                GresGpu {
                    kind: Some("a100".into()),
                    count: 4
                },
                GresGpu {
                    kind: Some("v100".into()),
                    count: 2
                }
            ]
        );
        assert!(parse_gres("").is_empty());
        assert!(parse_gres("(null)").is_empty());
    }
}
