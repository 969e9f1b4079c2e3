//! What kind of machine this is, in words: its platform, provider and memory channels.

use crate::advisor::Assessment;
use crate::advisor::buying::purchase::ModulePlan;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::{CloudProvider, Platform, PlatformKind, WslConfigState};

/// "cloud instance", "desktop", …
pub fn kind(lang: Lang, k: PlatformKind) -> &'static str {
    tr(
        lang,
        match k {
            PlatformKind::Cloud => Msg::PlatformKindCloud,
            PlatformKind::VirtualMachine => Msg::PlatformKindVirtualMachine,
            PlatformKind::Desktop => Msg::PlatformKindDesktop,
            PlatformKind::Workstation => Msg::PlatformKindWorkstation,
            PlatformKind::Server => Msg::PlatformKindServer,
            PlatformKind::Laptop => Msg::PlatformKindLaptop,
            PlatformKind::Apple => Msg::PlatformKindApple,
            PlatformKind::HostedNotebook => Msg::PlatformKindHostedNotebook,
        },
    )
}

/// "AWS", "Google Cloud", …
pub fn provider(lang: Lang, p: CloudProvider) -> &'static str {
    tr(
        lang,
        match p {
            CloudProvider::Aws => Msg::PlatformProviderAws,
            CloudProvider::Gcp => Msg::PlatformProviderGcp,
            CloudProvider::Azure => Msg::PlatformProviderAzure,
            CloudProvider::Alibaba => Msg::PlatformProviderAlibaba,
            CloudProvider::Oracle => Msg::PlatformProviderOracle,
        },
    )
}

/// "cloud instance · AWS · g5.xlarge", "desktop", or "unknown".
pub fn platform(lang: Lang, p: Option<&Platform>) -> String {
    let Some(p) = p else {
        return format::unknown(lang);
    };
    let mut parts: Vec<String> = Vec::new();
    parts.push(
        p.kind
            .map_or_else(|| format::unknown(lang), |k| kind(lang, k).to_string()),
    );
    if let Some(pr) = p.provider {
        parts.push(provider(lang, pr).to_string());
    }
    if let Some(t) = &p.instance_type {
        parts.push(t.clone());
    }
    parts.join(" · ")
}

/// Hardware rows about the kind of machine, its slots and WSL (each only when known).
pub fn platform_rows(lang: Lang, a: &Assessment) -> Vec<(String, String)> {
    let m = &a.profile.memory;
    let mut rows = vec![(
        tr(lang, Msg::PlatformLabel).to_string(),
        platform(lang, a.profile.host.platform.as_ref()),
    )];
    if let (Some(total), Some(used)) = (m.slots_total, m.slots_populated) {
        let value = match m.channels_total {
            Some(c) => trf(
                lang,
                Msg::PlatformSlotsValueChannels,
                &[
                    ("populated", &used.to_string()),
                    ("total", &total.to_string()),
                    ("channels", &c.to_string()),
                ],
            ),
            None => trf(
                lang,
                Msg::PlatformSlotsValue,
                &[
                    ("populated", &used.to_string()),
                    ("total", &total.to_string()),
                ],
            ),
        };
        rows.push((tr(lang, Msg::PlatformSlots).to_string(), value));
    }
    if let Some(w) = &m.wsl {
        let config = match (w.wslconfig_memory_bytes, w.wslconfig) {
            (Some(mem), _) => trf(
                lang,
                Msg::PlatformWslConfigMemory,
                &[("memory", &format::gib(mem))],
            ),
            (None, Some(WslConfigState::Read)) => tr(lang, Msg::PlatformWslConfigDefault).into(),
            (None, Some(WslConfigState::Absent)) => tr(lang, Msg::PlatformWslConfigAbsent).into(),
            (None, Some(WslConfigState::Malformed)) => {
                tr(lang, Msg::PlatformWslConfigMalformed).into()
            }
            (None, Some(WslConfigState::Ambiguous)) => {
                tr(lang, Msg::PlatformWslConfigAmbiguous).into()
            }
            (None, Some(WslConfigState::Unreadable) | None) => {
                tr(lang, Msg::PlatformWslConfigUnreadable).into()
            }
        };
        let cap = format::gib_or_unknown(lang, w.memory_cap_bytes);
        let value = match w.version {
            Some(v) => trf(
                lang,
                Msg::PlatformWslValue,
                &[
                    ("version", &v.to_string()),
                    ("cap", &cap),
                    ("config", &config),
                ],
            ),
            None => trf(
                lang,
                Msg::PlatformWslVUnknown,
                &[("cap", &cap), ("config", &config)],
            ),
        };
        rows.push((tr(lang, Msg::PlatformWsl).to_string(), value));
    }
    rows
}

/// How the channels are filled after a module plan: "dual channel", "4 channels, evenly
/// filled", "1 of 2 channels used", or "channels unknown".
pub fn channels(lang: Lang, p: &ModulePlan) -> String {
    let (Some(total), Some(used), Some(balanced)) =
        (p.channels_total, p.channels_after, p.balanced)
    else {
        return tr(lang, Msg::PurchaseChannelsUnknown).to_string();
    };
    if used < total {
        return trf(
            lang,
            Msg::PurchaseChannelsPartial,
            &[
                ("used", &used.to_string()),
                ("channels", &total.to_string()),
            ],
        );
    }
    if !balanced {
        return trf(
            lang,
            Msg::PurchaseChannelsUneven,
            &[
                ("modules", &p.modules_after.to_string()),
                ("channels", &total.to_string()),
            ],
        );
    }
    match total {
        1 => tr(lang, Msg::PurchaseChannelsSingle).to_string(),
        2 => tr(lang, Msg::PurchaseChannelsDual).to_string(),
        n => trf(
            lang,
            Msg::PurchaseChannelsEven,
            &[("channels", &n.to_string())],
        ),
    }
}
