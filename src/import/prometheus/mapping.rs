//! Which Prometheus series fill which trace field: the mapping file (`--mapping FILE`, TOML),
//! laid over the defaults in `assets/prometheus/mapping.toml` (node_exporter and NVIDIA's DCGM
//! exporter; `docs/cluster.md`).
//!
//! A query is a PromQL template: `$node` becomes the label matcher that picks the node(s),
//! `$label` the node label's name, `$window` the rate window. Each field has a kind (bytes,
//! bytes/s, percent, watts, per second, count); a query may name the unit its series is in
//! (`MiB`, `ratio`, `mW`) and the value is converted into the field's unit.

use std::collections::BTreeMap;
use std::path::Path;

pub use super::fields::{Field, Kind, Section, Unit};

/// The default mapping, bundled.
pub const DEFAULT_MAPPING: &str = include_str!("../../../assets/prometheus/mapping.toml");

/// Size cap of a mapping file: 1 MiB (the default is about 5 KB).
pub const MAX_MAPPING_BYTES: u64 = 1 << 20;

/// The shortest rate window `$window` becomes: 60 s (node_exporter is commonly scraped every
/// 15–30 s, and a rate needs two scrapes inside its window). Longer steps use the step.
pub const MIN_RATE_WINDOW_S: f64 = 60.0;

/// How a node's name matches the node label's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeMatch {
    /// `gpu07` matches `gpu07`, `gpu07:9100`, `gpu07:9400` (exporters on one host differ only
    /// by port).
    Host,
    /// The label's value exactly.
    Exact,
}

/// A PromQL template and the unit of its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The template, with `$node`, `$label` and `$window` still in it.
    pub template: String,
    /// The unit of its values.
    pub unit: Unit,
}

/// The labels of the DCGM exporter's series that describe a GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuLabels {
    /// The GPU's index (`gpu`); series without a whole number in it are left out.
    pub index: String,
    /// Model name (`modelName`).
    pub name: String,
    /// Driver version (`DCGM_FI_DRIVER_VERSION`).
    pub driver: String,
    /// UUID (`UUID`).
    pub uuid: String,
    /// PCI bus id (`pci_bus_id`).
    pub bus_id: String,
}

/// Which series fill which field, and how nodes are named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    /// The label naming a node (`instance`).
    pub node_label: String,
    /// How a node name matches it.
    pub node_match: NodeMatch,
    /// The query whose series list the nodes (`up`).
    pub list: String,
    /// GPU labels.
    pub gpu_labels: GpuLabels,
    /// Each field's query; `None` when turned off.
    pub queries: BTreeMap<Field, Option<Query>>,
}

/// Which nodes a query asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope<'a> {
    /// One node, by name.
    Node(&'a str),
    /// Every node.
    All,
}

/// A mapping file that can't be used: the key (`host.cpu_busy_percent`, `.` for the file) and
/// what is wrong, in English (shown with the file's name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MappingError {
    /// The key.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for MappingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "key `{}`: {}", self.key, self.message)
    }
}

fn err(key: &str, message: impl Into<String>) -> MappingError {
    MappingError {
        key: key.to_string(),
        message: message.into(),
    }
}

/// A Prometheus label name: `[a-zA-Z_][a-zA-Z0-9_]*` (it is put into queries unquoted).
pub fn valid_label_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 128
}

impl Mapping {
    /// The bundled defaults.
    pub fn defaults() -> Mapping {
        let mut m = Mapping {
            node_label: String::new(),
            node_match: NodeMatch::Host,
            list: String::new(),
            gpu_labels: GpuLabels {
                index: String::new(),
                name: String::new(),
                driver: String::new(),
                uuid: String::new(),
                bus_id: String::new(),
            },
            queries: BTreeMap::new(),
        };
        m.apply(DEFAULT_MAPPING)
            .expect("the bundled mapping is valid (tested)");
        m
    }

    /// The defaults with a mapping file's text laid over them.
    ///
    /// # Errors
    /// A key that is unknown, of the wrong type, or with an impossible value.
    pub fn from_text(text: &str) -> Result<Mapping, MappingError> {
        let mut m = Mapping::defaults();
        m.apply(text)?;
        Ok(m)
    }

    /// Reads a mapping file (a regular file of at most [`MAX_MAPPING_BYTES`]).
    ///
    /// # Errors
    /// The read error, or [`Mapping::from_text`]'s.
    pub fn load(path: &Path) -> Result<Mapping, MappingError> {
        let text = crate::fsutil::read_input_string(path, MAX_MAPPING_BYTES)
            .map_err(|e| err(".", format!("cannot read: {e}")))?;
        Mapping::from_text(&text)
    }

    fn apply(&mut self, text: &str) -> Result<(), MappingError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| err(".", e.message().to_string()))?;
        for (section, value) in &table {
            let toml::Value::Table(entries) = value else {
                return Err(err(section, "must be a table ([section])"));
            };
            match section.as_str() {
                "node" => self.apply_node(entries)?,
                "gpu_labels" => self.apply_gpu_labels(entries)?,
                "host" | "gpu" | "machine" => self.apply_queries(section, entries)?,
                _ => return Err(err(section, "unknown section")),
            }
        }
        Ok(())
    }

    fn apply_node(&mut self, entries: &toml::Table) -> Result<(), MappingError> {
        for (key, value) in entries {
            let path = format!("node.{key}");
            let text = string(&path, value)?;
            match key.as_str() {
                "label" if valid_label_name(text) => self.node_label = text.to_string(),
                "label" => return Err(err(&path, "not a Prometheus label name")),
                "match" => {
                    self.node_match = match text {
                        "host" => NodeMatch::Host,
                        "exact" => NodeMatch::Exact,
                        _ => return Err(err(&path, "must be \"host\" or \"exact\"")),
                    }
                }
                "list" if !text.trim().is_empty() => self.list = text.to_string(),
                "list" => return Err(err(&path, "must not be empty")),
                _ => return Err(err(&path, "unknown key")),
            }
        }
        Ok(())
    }

    fn apply_gpu_labels(&mut self, entries: &toml::Table) -> Result<(), MappingError> {
        for (key, value) in entries {
            let path = format!("gpu_labels.{key}");
            let text = string(&path, value)?;
            if !valid_label_name(text) {
                return Err(err(&path, "not a Prometheus label name"));
            }
            let slot = match key.as_str() {
                "index" => &mut self.gpu_labels.index,
                "name" => &mut self.gpu_labels.name,
                "driver" => &mut self.gpu_labels.driver,
                "uuid" => &mut self.gpu_labels.uuid,
                "bus_id" => &mut self.gpu_labels.bus_id,
                _ => return Err(err(&path, "unknown key")),
            };
            *slot = text.to_string();
        }
        Ok(())
    }

    fn apply_queries(&mut self, section: &str, entries: &toml::Table) -> Result<(), MappingError> {
        for (key, value) in entries {
            let path = format!("{section}.{key}");
            let field = Field::ALL
                .iter()
                .copied()
                .find(|f| f.section().name() == section && f.key() == key)
                .ok_or_else(|| err(&path, "unknown key"))?;
            let (template, unit) = match value {
                toml::Value::String(s) => (s.clone(), Unit::Native),
                toml::Value::Table(t) => {
                    if let Some(k) = t.keys().find(|k| *k != "query" && *k != "unit") {
                        return Err(err(&format!("{path}.{k}"), "unknown key"));
                    }
                    let query = t
                        .get("query")
                        .ok_or_else(|| err(&path, "a table needs `query`"))?;
                    let template = string(&format!("{path}.query"), query)?.to_string();
                    let unit = match t.get("unit") {
                        Some(u) => {
                            let text = string(&format!("{path}.unit"), u)?;
                            Unit::parse(text).ok_or_else(|| {
                                err(&format!("{path}.unit"), format!("unknown unit {text:?}"))
                            })?
                        }
                        None => Unit::Native,
                    };
                    (template, unit)
                }
                _ => return Err(err(&path, "must be a query string or { query, unit }")),
            };
            if !unit.fits(field.kind()) {
                return Err(err(&path, "this unit does not fit the field"));
            }
            if template.len() > 16 * 1024 {
                return Err(err(&path, "longer than 16 KiB"));
            }
            let query = (!template.trim().is_empty()).then_some(Query { template, unit });
            self.queries.insert(field, query);
        }
        Ok(())
    }

    /// The query of `field`, `None` when turned off.
    pub fn query(&self, field: Field) -> Option<&Query> {
        self.queries.get(&field).and_then(Option::as_ref)
    }

    /// The label matcher for `scope`: `instance=~"gpu07(:[0-9]+)?"` (host match; a port given
    /// with the node is dropped, so that every exporter of the host matches),
    /// `instance="gpu07:9100"` (exact), `instance!=""` (every node).
    pub fn matcher(&self, scope: Scope<'_>) -> String {
        let label = &self.node_label;
        match (scope, self.node_match) {
            (Scope::All, _) => format!("{label}!=\"\""),
            (Scope::Node(n), NodeMatch::Exact) => format!("{label}=\"{}\"", promql_string(n)),
            (Scope::Node(n), NodeMatch::Host) => {
                let regex = format!("{}(:[0-9]+)?", regex_escape(host_part(n)));
                format!("{label}=~\"{}\"", promql_string(&regex))
            }
        }
    }

    /// A query with its placeholders filled: `$node` (the matcher), `$label` (the node label)
    /// and `$window` (`window_s` as whole seconds, `60s`). One pass over the template: a
    /// placeholder's value is never searched again, so `$window` or `$label` inside a node
    /// name (`--instance`) stays text.
    pub fn render(&self, template: &str, scope: Scope<'_>, window_s: f64) -> String {
        let window = format!("{}s", window_s.max(1.0).ceil() as u64);
        let matcher = self.matcher(scope);
        let values: [(&str, &str); 3] = [
            ("$node", &matcher),
            ("$label", &self.node_label),
            ("$window", &window),
        ];
        let mut out = String::with_capacity(template.len() + matcher.len());
        let mut rest = template;
        while let Some(i) = rest.find('$') {
            out.push_str(&rest[..i]);
            let tail = &rest[i..];
            match values.iter().find(|(name, _)| tail.starts_with(name)) {
                Some((name, value)) => {
                    out.push_str(value);
                    rest = &tail[name.len()..];
                }
                None => {
                    out.push('$');
                    rest = &tail[1..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// A node name as given (`--instance`, the window's field) as series are grouped: without
    /// its port when nodes match by host (`gpu07:9100` → `gpu07`).
    pub fn node_key(&self, given: &str) -> String {
        match self.node_match {
            NodeMatch::Exact => given.to_string(),
            NodeMatch::Host => host_part(given).to_string(),
        }
    }

    /// The node a series belongs to: its node label's value, without a port when nodes match
    /// by host. `None` when the label is missing or empty.
    pub fn node_of(&self, labels: &BTreeMap<String, String>) -> Option<String> {
        let value = labels.get(&self.node_label).filter(|v| !v.is_empty())?;
        Some(match self.node_match {
            NodeMatch::Exact => value.clone(),
            NodeMatch::Host => host_part(value).to_string(),
        })
    }
}

/// `gpu07:9100` → `gpu07`; `[::1]:9100` → `[::1]`; a value without a port (or a bare IPv6
/// address) as it is.
pub fn host_part(value: &str) -> &str {
    match value.rsplit_once(':') {
        Some((host, port))
            if !port.is_empty()
                && port.bytes().all(|b| b.is_ascii_digit())
                && !host.is_empty()
                && (!host.contains(':') || (host.starts_with('[') && host.ends_with(']'))) =>
        {
            host
        }
        _ => value,
    }
}

fn string<'a>(path: &str, value: &'a toml::Value) -> Result<&'a str, MappingError> {
    value.as_str().ok_or_else(|| err(path, "must be a string"))
}

/// `text` inside a PromQL double-quoted string: backslashes and quotes escaped, line breaks
/// written as `\n`.
pub fn promql_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

/// `text` as a literal inside an RE2 regular expression.
pub fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_mapping_has_every_field() {
        let m = Mapping::defaults();
        assert_eq!(m.node_label, "instance");
        assert_eq!(m.node_match, NodeMatch::Host);
        for f in Field::ALL {
            assert!(m.queries.contains_key(f), "{}", f.path());
        }
        assert_eq!(m.query(Field::KswapdCpu), None);
        assert_eq!(m.query(Field::GpuMemUsed).unwrap().unit, Unit::MiB);
        assert_eq!(m.query(Field::CpuBusy).unwrap().unit, Unit::Ratio);
    }

    #[test]
    fn docs_cluster_md_quotes_the_bundled_mapping() {
        let docs = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cluster.md"),
        )
        .unwrap();
        for line in DEFAULT_MAPPING.lines().filter(|l| !l.trim().is_empty()) {
            assert!(docs.contains(line), "docs/cluster.md lacks: {line}");
        }
    }

    #[test]
    fn a_file_overrides_keys_and_keeps_the_rest() {
        let m = Mapping::from_text(
            "[node]\nlabel = \"hostname\"\nmatch = \"exact\"\n[host]\ncpu_busy_percent = 'my_cpu{$node}'\npsi_io_some_avg10 = ''\n[gpu]\npower_w = { query = 'p{$node}', unit = 'mW' }\n",
        )
        .unwrap();
        assert_eq!(m.node_label, "hostname");
        assert_eq!(m.query(Field::CpuBusy).unwrap().template, "my_cpu{$node}");
        assert_eq!(m.query(Field::CpuBusy).unwrap().unit, Unit::Native);
        assert_eq!(m.query(Field::PsiIoSome), None);
        assert_eq!(m.query(Field::GpuPower).unwrap().unit.factor(), 1e-3);
        assert_eq!(
            m.query(Field::MemAvailable).unwrap().template,
            "node_memory_MemAvailable_bytes{$node}"
        );
        assert_eq!(
            m.render("x{$node}", Scope::Node("gpu07:9100"), 60.0),
            "x{hostname=\"gpu07:9100\"}"
        );
    }

    #[test]
    fn mistakes_name_their_key() {
        for (text, key) in [
            ("[host]\ncpu_busy = 'x'\n", "host.cpu_busy"),
            ("[hots]\n", "hots"),
            ("[node]\nlabel = \"in-stance\"\n", "node.label"),
            (
                "[gpu]\nmem_used_bytes = { query = 'x', unit = 'ratio' }\n",
                "gpu.mem_used_bytes",
            ),
            (
                "[gpu]\nmem_used_bytes = { query = 'x', unit = 'parsecs' }\n",
                "gpu.mem_used_bytes.unit",
            ),
            ("[gpu]\nmem_used_bytes = 3\n", "gpu.mem_used_bytes"),
            (
                "[gpu]\nmem_used_bytes = { qurey = 'x' }\n",
                "gpu.mem_used_bytes.qurey",
            ),
            ("host = 1\n", "host"),
            ("[node\n", "."),
        ] {
            assert_eq!(Mapping::from_text(text).unwrap_err().key, key, "{text}");
        }
    }

    #[test]
    fn node_matchers_escape_hostile_names() {
        let m = Mapping::defaults();
        assert_eq!(
            m.matcher(Scope::Node("10.0.0.7")),
            r#"instance=~"10\\.0\\.0\\.7(:[0-9]+)?""#
        );
        // A quote can't end the string and add a matcher of its own.
        assert_eq!(
            m.matcher(Scope::Node("a\"}or{x=\"")),
            r#"instance=~"a\"\\}or\\{x=\"(:[0-9]+)?""#
        );
        assert_eq!(m.matcher(Scope::All), r#"instance!="""#);
        assert_eq!(
            m.render("rate(x{$node}[$window]) by ($label)", Scope::All, 15.0),
            r#"rate(x{instance!=""}[15s]) by (instance)"#
        );
        // `$window` and `$label` in a node name are text, not placeholders.
        assert_eq!(
            m.render(
                "rate(x{$node}[$window])",
                Scope::Node("n$window$label"),
                15.0
            ),
            r#"rate(x{instance=~"n\\$window\\$label(:[0-9]+)?"}[15s])"#
        );
    }

    #[test]
    fn ports_are_stripped_from_host_names_only() {
        assert_eq!(host_part("gpu07:9100"), "gpu07");
        assert_eq!(host_part("gpu07"), "gpu07");
        assert_eq!(host_part("[::1]:9100"), "[::1]");
        assert_eq!(host_part("::1"), "::1");
        assert_eq!(host_part("gpu07:http"), "gpu07:http");
        assert_eq!(host_part(":9100"), ":9100");
    }
}
