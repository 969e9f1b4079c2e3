//! A process and its descendants, from a list of `/proc/PID/stat` entries. Pure.

use std::collections::HashMap;

use super::procfs::PidStat;

/// The processes of the tree rooted at `root` (root first, then its descendants breadth
/// first); empty when `root` is not in the list. A parent link that loops is followed once.
pub fn tree(root: u32, all: &[PidStat]) -> Vec<&PidStat> {
    let mut children: HashMap<u32, Vec<&PidStat>> = HashMap::new();
    let mut by_pid: HashMap<u32, &PidStat> = HashMap::new();
    for p in all {
        by_pid.insert(p.pid, p);
        if p.pid != p.ppid {
            children.entry(p.ppid).or_default().push(p);
        }
    }
    let Some(first) = by_pid.get(&root) else {
        return Vec::new();
    };
    let mut out = vec![*first];
    let mut seen = std::collections::HashSet::from([root]);
    let mut i = 0;
    while i < out.len() {
        if let Some(kids) = children.get(&out[i].pid) {
            for k in kids {
                if seen.insert(k.pid) {
                    out.push(k);
                }
            }
        }
        i += 1;
    }
    out
}

/// CPU ticks the tree used since the previous reading: for each process seen both times (same
/// PID and start time) the difference, for a new process all its ticks (it started after the
/// previous reading, or its start was not seen). A process that ended in between loses its
/// last interval. Returns the ticks and the table for the next call.
pub fn cpu_ticks_since(
    previous: &HashMap<u32, (u64, u64)>,
    now: &[&PidStat],
) -> (u64, HashMap<u32, (u64, u64)>) {
    let mut used = 0u64;
    let mut table = HashMap::with_capacity(now.len());
    for p in now {
        used += match previous.get(&p.pid) {
            Some((start, ticks)) if *start == p.start_ticks => p.cpu_ticks.saturating_sub(*ticks),
            _ => p.cpu_ticks,
        };
        table.insert(p.pid, (p.start_ticks, p.cpu_ticks));
    }
    (used, table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(pid: u32, ppid: u32, ticks: u64) -> PidStat {
        PidStat {
            pid,
            comm: format!("p{pid}"),
            state: 'S',
            ppid,
            cpu_ticks: ticks,
            start_ticks: u64::from(pid) * 10,
            rss_pages: 100,
        }
    }

    #[test]
    fn descendants_of_a_training_process() {
        // 100 is the shell; 200 the training script with workers 201, 202; 202 started a
        // helper 300; 400 is unrelated.
        let all = [
            p(1, 0, 0),
            p(100, 1, 0),
            p(200, 100, 0),
            p(201, 200, 0),
            p(202, 200, 0),
            p(300, 202, 0),
            p(400, 1, 0),
        ];
        let pids: Vec<u32> = tree(200, &all).iter().map(|x| x.pid).collect();
        assert_eq!(pids, [200, 201, 202, 300]);
        assert!(tree(999, &all).is_empty());
    }

    #[test]
    fn cpu_since_last_time_counts_new_processes_whole_and_reused_pids_afresh() {
        let first = [p(200, 1, 1000), p(201, 200, 500)];
        let refs: Vec<&PidStat> = first.iter().collect();
        let (_, table) = cpu_ticks_since(&HashMap::new(), &refs);
        // 200 used 50 more ticks, 202 is new with 30, and 201 ended and its PID went to a
        // new process (another start time) with 7.
        let mut reused = p(201, 200, 7);
        reused.start_ticks = 99_999;
        let second = [p(200, 1, 1050), p(202, 200, 30), reused];
        let refs: Vec<&PidStat> = second.iter().collect();
        let (used, _) = cpu_ticks_since(&table, &refs);
        assert_eq!(used, 50 + 30 + 7);
    }
}
