//! Checks of the profile fields that describe memory pools beyond RAM and VRAM: an APU's
//! carve-out and GTT, the NUMA nodes, and Metal's GPU working set on a Mac ([`super::io`] runs
//! them). Values no machine can have are refused with the field's JSON path.

use super::Problem;

/// Most NUMA nodes a profile may list: 1,024, Linux's `MAX_NUMNODES` at its largest
/// (`CONFIG_NODES_SHIFT=10`, the kernel's `mm/Kconfig` bound).
pub const MAX_NUMA_NODES: usize = 1024;

fn size(field: String, v: Option<u64>) -> Result<(), (String, Problem)> {
    match v {
        Some(0) => Err((field, Problem::Zero)),
        Some(x) if x > super::MAX_RAM_BYTES => Err((
            field,
            Problem::TooLarge {
                value: x.to_string(),
                max: super::MAX_RAM_BYTES.to_string(),
            },
        )),
        _ => Ok(()),
    }
}

/// Checks `gpus[].carveout_bytes`, `gpus[].gtt_bytes`, `memory.numa_nodes` and
/// `macos.gpu_working_set_bytes`: sizes above 0 and at most [`super::MAX_RAM_BYTES`] (these
/// are all carved from system RAM), at most [`MAX_NUMA_NODES`] nodes numbered below it.
///
/// # Errors
/// The field's JSON path and what is wrong with it.
pub(super) fn pools(p: &super::MachineProfile) -> Result<(), (String, Problem)> {
    for (i, g) in p.gpus.iter().enumerate() {
        size(format!("gpus[{i}].carveout_bytes"), g.carveout_bytes)?;
        size(format!("gpus[{i}].gtt_bytes"), g.gtt_bytes)?;
    }
    let nodes = &p.memory.numa_nodes;
    if nodes.len() > MAX_NUMA_NODES {
        return Err((
            "memory.numa_nodes".into(),
            Problem::TooMany {
                count: nodes.len(),
                max: MAX_NUMA_NODES,
            },
        ));
    }
    let top = MAX_NUMA_NODES as u32 - 1;
    for (i, n) in nodes.iter().enumerate() {
        if n.id > top {
            return Err((
                format!("memory.numa_nodes[{i}].id"),
                Problem::out_of_range(n.id, 0, top),
            ));
        }
        size(format!("memory.numa_nodes[{i}].total_bytes"), n.total_bytes)?;
    }
    if let Some(m) = &p.macos {
        size(
            "macos.gpu_working_set_bytes".into(),
            m.gpu_working_set_bytes,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{MachineProfile, NumaNode};

    fn base() -> MachineProfile {
        serde_json::from_str(
            r#"{"schema_version":1,"host":{"hostname":null,"os":null,"kernel":null,"arch":null},
            "cpu":{"model":null,"physical_cores":null,"logical_cpus":null},
            "memory":{"total_bytes":137438953472,"available_bytes":null,"swap_total_bytes":null,
            "swap_used_bytes":null,"limit_bytes":null,"swappiness":null,
            "transparent_hugepages":null,"shm_bytes":null}}"#,
        )
        .expect("a minimal profile")
    }

    #[test]
    fn sensible_pools_pass() {
        let mut p = base();
        // A two-socket server: two nodes of 256 GiB.
        p.memory.numa_nodes = vec![
            NumaNode {
                id: 0,
                total_bytes: Some(256 << 30),
            },
            NumaNode {
                id: 1,
                total_bytes: None,
            },
        ];
        assert_eq!(pools(&p), Ok(()));
    }

    #[test]
    fn impossible_pools_name_the_field() {
        let mut p = base();
        p.memory.numa_nodes = vec![NumaNode {
            id: 1024,
            total_bytes: Some(1),
        }];
        assert_eq!(pools(&p).unwrap_err().0, "memory.numa_nodes[0].id");
        p.memory.numa_nodes = vec![NumaNode {
            id: 3,
            total_bytes: Some(0),
        }];
        assert_eq!(pools(&p).unwrap_err().0, "memory.numa_nodes[0].total_bytes");
        p.memory.numa_nodes = (0..1025)
            .map(|id| NumaNode {
                id,
                total_bytes: None,
            })
            .collect();
        assert_eq!(pools(&p).unwrap_err().0, "memory.numa_nodes");
        p.memory.numa_nodes.clear();
        p.macos = Some(crate::profile::MacOs {
            // 2 PiB: above the 1 PiB a profile may claim.
            gpu_working_set_bytes: Some(2 << 50),
            ..Default::default()
        });
        assert_eq!(pools(&p).unwrap_err().0, "macos.gpu_working_set_bytes");
    }
}
