//! NUMA nodes from `/sys/devices/system/node`: each `nodeN` folder's `meminfo` starts with
//! `Node N MemTotal:  263856448 kB` (the kernel's `drivers/base/node.c`, `node_read_meminfo`;
//! kB there means KiB, as in `/proc/meminfo`).

use std::io::Read;
use std::path::Path;

use crate::profile::{MAX_RAM_BYTES, NumaNode};

/// Most nodes read: 1,024, Linux's largest `MAX_NUMNODES`.
const MAX_NODES: usize = 1024;

/// Longest `meminfo` read, bytes: a node's file is about 1.5 KiB; 64 KiB leaves room.
const MEMINFO_CAP: u64 = 64 * 1024;

/// The `MemTotal` of one node's `meminfo` text, bytes; `None` when absent, garbled, 0 or above
/// [`MAX_RAM_BYTES`].
pub fn node_mem_total(text: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let rest = line.split_once("MemTotal:")?.1;
        let mut words = rest.split_whitespace();
        let kib: u64 = words.next()?.parse().ok()?;
        if words.next() != Some("kB") {
            return None;
        }
        kib.checked_mul(1024)
            .filter(|b| *b > 0 && *b <= MAX_RAM_BYTES)
    })
}

/// The node number of a folder name `nodeN`; other names (`possible`, `online`, `power`) are
/// `None`.
pub fn node_id(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("node")?;
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits
        .parse()
        .ok()
        .filter(|n: &u32| (*n as usize) < MAX_NODES)
}

/// The NUMA nodes under `dir` (`/sys/devices/system/node`), by number; empty when the folder is
/// missing (a kernel without NUMA) or unreadable.
pub fn read_nodes(dir: &Path) -> Vec<NumaNode> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut nodes: Vec<NumaNode> = entries
        .filter_map(Result::ok)
        .take(MAX_NODES * 4)
        .filter_map(|e| {
            let name = e.file_name();
            let id = node_id(name.to_str()?)?;
            let mut buf = Vec::new();
            let total = std::fs::File::open(e.path().join("meminfo"))
                .and_then(|f| f.take(MEMINFO_CAP).read_to_end(&mut buf))
                .ok()
                .and_then(|_| std::str::from_utf8(&buf).ok().and_then(node_mem_total));
            Some(NumaNode {
                id,
                total_bytes: total,
            })
        })
        .collect();
    nodes.sort_by_key(|n| n.id);
    nodes.truncate(MAX_NODES);
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_lines() {
        // 263,856,448 KiB × 1024 = 270,189,002,752 B (about 251.6 GiB): one socket of a
        // 512 GiB two-socket server.
        let t = "Node 1 MemTotal:       263856448 kB\nNode 1 MemFree:        1000 kB\n";
        assert_eq!(node_mem_total(t), Some(270_189_002_752));
        assert_eq!(node_mem_total("Node 0 MemTotal: lots kB\n"), None);
        assert_eq!(node_mem_total("Node 0 MemTotal: 0 kB\n"), None);
        assert_eq!(node_mem_total("Node 0 MemTotal: 5 MB\n"), None);
        assert_eq!(
            node_mem_total("Node 0 MemTotal: 99999999999999999999 kB\n"),
            None
        );
        assert_eq!(node_id("node12"), Some(12));
        assert_eq!(node_id("node"), None);
        assert_eq!(node_id("node99999"), None);
        assert_eq!(node_id("possible"), None);
    }

    #[test]
    fn a_fake_two_node_tree() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for (n, kib) in [(0u32, 263_856_448u64), (1, 264_182_784)] {
            let node = dir.path().join(format!("node{n}"));
            std::fs::create_dir(&node).expect("a node");
            std::fs::write(
                node.join("meminfo"),
                format!("Node {n} MemTotal:       {kib} kB\n"),
            )
            .expect("meminfo");
        }
        std::fs::write(dir.path().join("online"), "0-1\n").expect("online");
        // A node whose meminfo is a huge run of garbage: listed, size unknown.
        let big = dir.path().join("node2");
        std::fs::create_dir(&big).expect("a node");
        std::fs::write(big.join("meminfo"), vec![b'x'; 200_000]).expect("garbage");
        let nodes = read_nodes(dir.path());
        assert_eq!(
            nodes,
            vec![
                NumaNode {
                    id: 0,
                    total_bytes: Some(263_856_448 * 1024)
                },
                NumaNode {
                    id: 1,
                    total_bytes: Some(264_182_784 * 1024)
                },
                NumaNode {
                    id: 2,
                    total_bytes: None
                },
            ]
        );
        assert!(read_nodes(&dir.path().join("missing")).is_empty());
    }
}
