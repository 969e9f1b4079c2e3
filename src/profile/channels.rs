//! Memory channels inferred from the modules' slot names. Pure, on profile data: detection uses
//! it to fill `memory.channels_populated`, the advisor to judge uneven channels.

use std::collections::BTreeMap;

use super::Dimm;

/// Memory channels inferred from the modules' slot names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelLayout {
    /// Populated channels, keyed `socket/controller/channel` (e.g. `"-/0/A"`), with the number
    /// of modules and bytes in each.
    pub channels: BTreeMap<String, (u32, u64)>,
}

impl ChannelLayout {
    /// Number of populated channels.
    pub fn count(&self) -> u32 {
        self.channels.len() as u32
    }

    /// True when the channels hold different amounts of memory or different numbers of
    /// modules (then part of the memory runs at fewer channels' bandwidth).
    pub fn uneven(&self) -> bool {
        let mut it = self.channels.values();
        let Some(first) = it.next() else { return false };
        it.any(|c| c != first)
    }
}

/// Infers populated channels from slot names: `CHANNEL A` / `ChannelA` / `Channel0` in the
/// locator or bank locator, else the letter in `DIMM_A1` / `DIMMA1` / `A1`, qualified by the
/// socket (`CPU1`, `P0`), the memory controller (`Controller0`) and the node (`Node1`). Returns
/// `None` when any populated module's slot name has no channel in it (e.g. `DIMM 0` alone):
/// then the count is unknown, not guessed.
pub fn infer_channels(dimms: &[Dimm]) -> Option<ChannelLayout> {
    if dimms.is_empty() {
        return None;
    }
    let mut channels: BTreeMap<String, (u32, u64)> = BTreeMap::new();
    for d in dimms {
        let key = channel_key(d)?;
        let e = channels.entry(key).or_default();
        e.0 += 1;
        e.1 += d.size_bytes.unwrap_or(0);
    }
    Some(ChannelLayout { channels })
}

fn channel_key(d: &Dimm) -> Option<String> {
    let text = format!(
        "{} {}",
        d.bank_locator.as_deref().unwrap_or(""),
        d.locator.as_deref().unwrap_or("")
    )
    .to_ascii_uppercase();
    let tokens: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let mut socket = String::from("-");
    let mut controller = String::from("-");
    let mut channel: Option<String> = None;
    let mut letter: Option<String> = None;
    for (i, t) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1).copied().unwrap_or("");
        if let Some(rest) = t.strip_prefix("CHANNEL") {
            let id = if rest.is_empty() { next } else { rest };
            if !id.is_empty() && channel.is_none() {
                channel = Some(id.to_string());
            }
        } else if let Some(n) = t
            .strip_prefix("CPU")
            .or_else(|| t.strip_prefix("SOCKET"))
            .or_else(|| t.strip_prefix('P'))
            .filter(|n| digits(n))
        {
            socket = n.to_string();
        } else if let Some(n) = t
            .strip_prefix("CONTROLLER")
            .or_else(|| t.strip_prefix("NODE"))
            .or_else(|| t.strip_prefix("MC"))
            .filter(|n| digits(n))
        {
            controller = format!("{controller}{n}");
        } else if let Some(rest) = t.strip_prefix("DIMM") {
            let slot = if rest.is_empty() { next } else { rest };
            if let Some(l) = slot_letter(slot) {
                letter.get_or_insert(l);
            }
        } else if let Some(l) = slot_letter(t).filter(|_| t.len() <= 3) {
            letter.get_or_insert(l);
        }
    }
    let ch = channel.or(letter)?;
    Some(format!("{socket}/{controller}/{ch}"))
}

/// `"A1"`, `"B"`, `"C2"` → the letter; `"0"`, `"BANK"` → `None`.
fn slot_letter(s: &str) -> Option<String> {
    let mut chars = s.chars();
    let first = chars.next()?;
    let rest: String = chars.collect();
    (first.is_ascii_uppercase() && rest.chars().all(|c| c.is_ascii_digit()) && rest.len() <= 2)
        .then(|| first.to_string())
}
