//! `ramvram diagnose --prometheus` against the real thing: Debian's `prometheus` and
//! `prometheus-node-exporter` started on loopback (free ports, a temporary data folder, a 1 s
//! scrape interval), node_exporter's textfile collector reading a `.prom` file that a thread
//! rewrites (temporary file, then rename) four times a second: a GPU utilisation saw-tooth
//! under DCGM's metric names, then a steady stretch. The saw-tooth's range must be diagnosed
//! `gpu-starved`, the steady range nothing at all.
//!
//! The CPU load is not something a test can set on the machine running it, so the textfile
//! also carries `ramvram_test_cpu_busy_percent` (and an I/O wait), and a mapping file written by
//! the test points the trace's `cpu_busy_percent` and `iowait_percent` at them: the mapping
//! path is exercised too. Memory, swap and the rest come from node_exporter's real series with
//! the default mapping.
//!
//! Without the two binaries the test fails when `CI` or `RAMVRAM_REQUIRE_PROMETHEUS=1` is set
//! (`.ci/run` installs them), and is skipped with a note otherwise. The servers are killed when
//! the test ends, whatever happens (a guard's `Drop`, and `PR_SET_PDEATHSIG` should the test
//! process itself die).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

/// Seconds of saw-tooth (3 s idle, 3 s busy: five cycles), then of steady work.
const SAW_S: u64 = 30;
const STEADY_S: u64 = 16;
/// Half a saw-tooth period.
const HALF_S: u64 = 3;

fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin"), PathBuf::from("/usr/sbin")])
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn required() -> bool {
    let set = |v: &str| std::env::var(v).is_ok_and(|x| !x.is_empty() && x != "0" && x != "false");
    set("CI") || std::env::var("RAMVRAM_REQUIRE_PROMETHEUS").is_ok_and(|v| v == "1")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// The servers and the textfile writer; everything stops on drop (also while panicking).
struct Servers {
    children: Vec<(String, Child)>,
    stop: Arc<AtomicBool>,
    writer: Option<JoinHandle<()>>,
    logs: PathBuf,
}

impl Servers {
    fn spawn(&mut self, name: &str, program: &Path, args: &[String]) {
        let log = std::fs::File::create(self.logs.join(format!("{name}.log"))).unwrap();
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log);
        // Killed with the test process too, should it die without unwinding.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("{}: cannot start: {e}", program.display()));
        self.children.push((name.to_string(), child));
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.logs.join(format!("{name}.log"))).unwrap_or_default()
    }
}

impl Drop for Servers {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for (_, c) in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }
}

/// GET `path` on loopback `port`: the status line, or `None` when nothing answers.
fn http_status(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    text.lines().next().map(str::to_string)
}

fn wait_ready(servers: &Servers, name: &str, port: u16, path: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if http_status(port, path).is_some_and(|l| l.contains(" 200")) {
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!(
        "{name} did not become ready on 127.0.0.1:{port} within 30 s; its log:\n{}",
        servers.log(name)
    );
}

/// The textfile's contents `elapsed` seconds after the writer started.
fn textfile(elapsed: f64) -> String {
    let sawing = elapsed < SAW_S as f64;
    let idle = sawing && (elapsed as u64 / HALF_S) % 2 == 0;
    let (util, power) = if idle { (4, 80) } else { (95, 300) };
    let labels =
        r#"gpu="0",modelName="NVIDIA A10",DCGM_FI_DRIVER_VERSION="550.54.15",UUID="GPU-test""#;
    format!(
        "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\nDCGM_FI_DEV_GPU_UTIL{{{labels}}} {util}\n\
         # TYPE DCGM_FI_DEV_FB_USED gauge\nDCGM_FI_DEV_FB_USED{{{labels}}} 20480\n\
         # TYPE DCGM_FI_DEV_FB_FREE gauge\nDCGM_FI_DEV_FB_FREE{{{labels}}} 4096\n\
         # TYPE DCGM_FI_DEV_POWER_USAGE gauge\nDCGM_FI_DEV_POWER_USAGE{{{labels}}} {power}\n\
         # TYPE ramvram_test_cpu_busy_percent gauge\nramvram_test_cpu_busy_percent 97\n\
         # TYPE ramvram_test_iowait_percent gauge\nramvram_test_iowait_percent 1\n"
    )
}

fn ramvram(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ramvram"))
        .args(args)
        .env_remove("RAMVRAM_LANG")
        .env_remove("RAMVRAM_PROMETHEUS_TOKEN")
        .env("LANG", "C.UTF-8")
        .output()
        .unwrap()
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "exit {:?}\nstderr: {}\nstdout: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn ids(report: &Value) -> Vec<String> {
    report["diagnoses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_sawtooth_in_prometheus_is_gpu_starved_and_a_steady_range_is_nothing() {
    let (Some(prometheus), Some(exporter)) = (find("prometheus"), find("prometheus-node-exporter"))
    else {
        let msg = "Debian's `prometheus` and `prometheus-node-exporter` are not installed \
                   (apt-get install prometheus prometheus-node-exporter)";
        if required() {
            panic!("{msg}; CI or RAMVRAM_REQUIRE_PROMETHEUS=1 requires this test to run");
        }
        eprintln!("skipped: {msg}");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (textdir, data) = (dir.path().join("textfile"), dir.path().join("data"));
    std::fs::create_dir_all(&textdir).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    let mut servers = Servers {
        children: Vec::new(),
        stop: Arc::new(AtomicBool::new(false)),
        writer: None,
        logs: dir.path().to_path_buf(),
    };

    // The textfile exists before the exporter's first scrape.
    let prom_file = textdir.join("dcgm.prom");
    std::fs::write(&prom_file, textfile(0.0)).unwrap();
    let (node_port, prom_port) = (free_port(), free_port());
    servers.spawn(
        "node-exporter",
        &exporter,
        &[
            format!("--web.listen-address=127.0.0.1:{node_port}"),
            format!("--collector.textfile.directory={}", textdir.display()),
        ],
    );
    let config = dir.path().join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  \
             - job_name: node\n    static_configs:\n      - targets: ['127.0.0.1:{node_port}']\n"
        ),
    )
    .unwrap();
    servers.spawn(
        "prometheus",
        &prometheus,
        &[
            format!("--config.file={}", config.display()),
            format!("--storage.tsdb.path={}", data.display()),
            format!("--web.listen-address=127.0.0.1:{prom_port}"),
        ],
    );
    wait_ready(&servers, "node-exporter", node_port, "/metrics");
    wait_ready(&servers, "prometheus", prom_port, "/-/ready");

    // The saw-tooth, then steady work; the file replaced atomically every 250 ms.
    let started = Instant::now();
    let t0 = unix_now();
    let stop = servers.stop.clone();
    let (file, tmp) = (prom_file.clone(), textdir.join(".dcgm.prom.tmp"));
    servers.writer = Some(std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            std::fs::write(&tmp, textfile(started.elapsed().as_secs_f64())).unwrap();
            std::fs::rename(&tmp, &file).unwrap();
            std::thread::sleep(Duration::from_millis(250));
        }
    }));
    let mapping = dir.path().join("mapping.toml");
    std::fs::write(
        &mapping,
        "[host]\ncpu_busy_percent = 'ramvram_test_cpu_busy_percent{$node}'\n\
         iowait_percent = 'ramvram_test_iowait_percent{$node}'\npsi_io_some_avg10 = ''\n",
    )
    .unwrap();
    // Both stretches, and two more scrapes for the last samples.
    std::thread::sleep(Duration::from_secs(SAW_S + STEADY_S + 2));

    let url = format!("http://127.0.0.1:{prom_port}");
    let saw_from = ramvram::import::prometheus::time::rfc3339(t0 + 1.0);
    let saw_to = format!("{}", (t0 + SAW_S as f64 - 1.0).round() as u64);
    let record = dir.path().join("saw.jsonl");
    let base = |from: &str, to: &str| {
        vec![
            "diagnose".to_string(),
            "--prometheus".into(),
            url.clone(),
            "--instance".into(),
            "127.0.0.1".into(),
            "--from".into(),
            from.to_string(),
            "--to".into(),
            to.to_string(),
            "--step".into(),
            "1s".into(),
            "--mapping".into(),
            mapping.display().to_string(),
        ]
    };
    let mut args = base(&saw_from, &saw_to);
    args.extend([
        "--json".into(),
        "--record".into(),
        record.display().to_string(),
    ]);
    let saw = json(&ramvram(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    let saw_ids = ids(&saw);
    assert!(saw_ids.contains(&"gpu-starved".to_string()), "{saw:#}");
    let starved = saw["diagnoses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == "gpu-starved")
        .unwrap();
    assert_eq!(starved["evidence"]["gpu"]["value"], 0);
    assert_eq!(starved["evidence"]["host_cpu"]["value"], 97.0);
    assert!(saw["samples"].as_u64().unwrap() >= 20, "{saw:#}");
    assert_eq!(saw["source"]["instance"], "127.0.0.1");
    assert_eq!(saw["interval_s"], 1.0);
    // DCGM's framebuffer is in MiB: 20480 MiB in bytes.
    assert_eq!(saw["peaks"]["gpu_mem_used_bytes"], 20480u64 * 1024 * 1024);
    // node_exporter's real series were found with the default mapping; what neither exporter
    // here has is listed as missing; what the test mapping turned off, as unmapped.
    let missing: Vec<&str> = saw["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for found in [
        "host.mem_available_bytes",
        "host.swap_used_bytes",
        "host.oom_kills_total",
        "host.cpu_busy_percent",
        "gpus[].util_percent",
        "gpus[].mem_used_bytes",
        "gpus[].power_w",
    ] {
        assert!(!missing.contains(&found), "{found} missing: {missing:?}");
    }
    assert!(
        missing.contains(&"gpus[].pcie_rx_bytes_per_s"),
        "{missing:?}"
    );
    assert!(
        saw["unmapped"]
            .as_array()
            .unwrap()
            .contains(&Value::from("host.psi_io_some_avg10"))
    );

    // The recorded trace replays to the same diagnoses.
    let replay = json(&ramvram(&["diagnose", record.to_str().unwrap(), "--json"]));
    assert_eq!(ids(&replay), saw_ids);

    // The steady stretch: nothing to report.
    let steady_from = format!("{}", (t0 + SAW_S as f64 + 3.0).round() as u64);
    let steady_to = ramvram::import::prometheus::time::rfc3339(t0 + (SAW_S + STEADY_S) as f64);
    let mut args = base(&steady_from, &steady_to);
    args.push("--json".into());
    let steady = json(&ramvram(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    assert!(steady["samples"].as_u64().unwrap() >= 10, "{steady:#}");
    assert_eq!(ids(&steady), Vec::<String>::new(), "{steady:#}");

    // The text names the diagnosis with its time on the clock.
    let text = ramvram(
        &base(&saw_from, &saw_to)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("GPU 0 waits for data"), "{text}");
    assert!(text.contains(" UTC"), "{text}");
    // Code spans in the advice lose their backticks, as everywhere in the terminal.
    assert!(!text.contains('`'), "{text}");

    // A node the server doesn't know is an error naming it and the nodes it does know, not
    // an empty trace with nothing wrong in it.
    let mut args = base(&saw_from, &saw_to);
    args[4] = "gpu99".into();
    let unknown = ramvram(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(unknown.status.code(), Some(2), "{unknown:?}");
    let err = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        err.contains("no data for node gpu99. The nodes it knows: 127.0.0.1."),
        "{err}"
    );
    assert!(unknown.stdout.is_empty(), "{unknown:?}");
    // A known node in a range before the servers started: no sample, an error too.
    let empty = ramvram(
        &base("2020-01-01T00:00:00Z", "2020-01-01T00:10:00Z")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(empty.status.code(), Some(2), "{empty:?}");
    let err = String::from_utf8_lossy(&empty.stderr);
    assert!(
        err.contains("knows node 127.0.0.1 but has no sample of it from 2020-01-01 00:00:00 UTC"),
        "{err}"
    );

    // The lab view from the same exporters: the GPU's framebuffer (used + free), RAM from
    // node_exporter, and what exporters don't carry left unknown.
    let fleet = json(&ramvram(&[
        "advise",
        "--prometheus",
        &url,
        "--fleet",
        "--json",
    ]));
    let machine = &fleet["machines"][0];
    assert_eq!(machine["label"], "127.0.0.1", "{fleet:#}");
    let profile = &machine["assessment"]["profile"];
    assert_eq!(
        profile["gpus"][0]["vram_total_bytes"],
        (20480u64 + 4096) * 1024 * 1024
    );
    assert_eq!(profile["gpus"][0]["driver_version"], "550.54.15");
    assert!(profile["memory"]["total_bytes"].as_u64().unwrap() > 0);
    assert!(profile["cpu"]["physical_cores"].is_null());
    assert!(profile["memory"]["shm_bytes"].is_null());
    drop(servers);
}
