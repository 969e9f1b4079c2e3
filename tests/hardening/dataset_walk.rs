//! Issue 37 item 1: root scans a dataset folder that another user owns while that user swaps a
//! class folder for a link to a root-only folder (and back), as fast as they can. The scan
//! reads every folder relative to its parent's descriptor without following links, so it never
//! walks the root-only folder: the counts never exceed what the folder holds.

use super::*;

/// A JPEG cut to SOI and an SOF0 segment of `width` × `height` (ITU-T T.81 §B.2.2).
fn jpeg(width: u16, height: u16) -> Vec<u8> {
    let mut j = vec![0xff, 0xd8, 0xff, 0xc0, 0, 17, 8];
    j.extend_from_slice(&height.to_be_bytes());
    j.extend_from_slice(&width.to_be_bytes());
    j.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9]);
    j
}

/// Drops this thread (only: the raw system calls, not libc's process-wide wrappers) to
/// `nobody`.
fn become_nobody_in_this_thread() {
    // SAFETY: plain system calls on this thread's credentials.
    unsafe {
        assert_eq!(
            libc::syscall(libc::SYS_setresgid, NOBODY, NOBODY, NOBODY),
            0,
            "setresgid"
        );
        assert_eq!(
            libc::syscall(libc::SYS_setresuid, NOBODY, NOBODY, NOBODY),
            0,
            "setresuid"
        );
    }
}

/// What the attacker's thread is told between scans.
enum Order {
    /// Put the swapped class folder back, then answer.
    Restore(std::sync::mpsc::Sender<bool>),
    /// Put it back and end.
    Stop,
}

/// The attacker, as `nobody` in this thread: watches the class folders with inotify and, the
/// moment the scan opens the first of them (so it has listed the top folder and seen every
/// class as a folder), swaps for a link to `secret` the class folder the scan will read last
/// (the first in directory order: the walk's stack pops the last listed first). On `Restore`
/// it puts the folder back and answers.
fn attacker(
    data: &Path,
    classes: &[std::path::PathBuf],
    holder: &Path,
    secret: &Path,
    orders: std::sync::mpsc::Receiver<Order>,
) {
    become_nobody_in_this_thread();
    // SAFETY: plain system calls; the descriptor is closed at the end.
    let ifd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
    assert!(ifd >= 0, "inotify_init1");
    let mut wds = Vec::new();
    for c in classes {
        let path = std::ffi::CString::new(c.to_str().unwrap()).unwrap();
        // SAFETY: a valid descriptor and a NUL-terminated path.
        let wd = unsafe { libc::inotify_add_watch(ifd, path.as_ptr(), libc::IN_OPEN) };
        assert!(wd >= 0, "inotify_add_watch");
        wds.push(wd);
    }
    let mut buf = [0u8; 4096];
    // Waits up to 2 ms for events; the index of the class folder of the first one.
    let mut first_event = |wait_ms: i32| -> Option<usize> {
        let mut pfd = libc::pollfd {
            fd: ifd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        unsafe { libc::poll(&mut pfd, 1, wait_ms) };
        // SAFETY: a valid descriptor and buffer.
        let n = unsafe { libc::read(ifd, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 16 {
            return None;
        }
        let wd = i32::from_ne_bytes(buf[0..4].try_into().unwrap());
        wds.iter().position(|&w| w == wd)
    };
    // The class read last: the first listed.
    let read_last = || {
        let first = std::fs::read_dir(data).unwrap().next().unwrap().unwrap();
        classes
            .iter()
            .position(|c| c.file_name() == Some(&first.file_name()))
    };
    let mut victim = read_last();
    let mut swapped: Option<usize> = None;
    loop {
        match orders.try_recv() {
            Ok(order) => {
                if let Some(v) = swapped.take() {
                    std::fs::remove_file(&classes[v]).unwrap();
                    std::fs::rename(holder.join("parked"), &classes[v]).unwrap();
                }
                while first_event(0).is_some() {}
                victim = read_last();
                match order {
                    Order::Restore(answer) => {
                        answer.send(true).unwrap();
                        continue;
                    }
                    Order::Stop => break,
                }
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
            Err(std::sync::mpsc::TryRecvError::Disconnected) => break,
        }
        if swapped.is_some() {
            std::thread::sleep(Duration::from_micros(200));
            continue;
        }
        if let Some(opened) = first_event(2) {
            let v = victim
                .filter(|&v| v != opened)
                .unwrap_or((opened + 1) % classes.len());
            std::fs::rename(&classes[v], holder.join("parked")).unwrap();
            std::os::unix::fs::symlink(secret, &classes[v]).unwrap();
            swapped = Some(v);
        }
    }
    // SAFETY: the descriptor opened above.
    unsafe { libc::close(ifd) };
}

#[test]
fn a_class_folder_swapped_for_a_link_during_the_scan_is_never_walked() {
    if skip_unless_root("a_class_folder_swapped_for_a_link_during_the_scan_is_never_walked") {
        return;
    }
    let base = tempfile::tempdir().unwrap();
    chmod(base.path(), 0o755);
    // Root's secret: 400 files whose headers say 4321 × 1234, in a folder only root may read.
    let secret = base.path().join("secret");
    std::fs::create_dir(&secret).unwrap();
    for i in 0..400 {
        std::fs::write(secret.join(format!("{i:02}.jpg")), jpeg(4321, 1234)).unwrap();
    }
    chmod(&secret, 0o700);
    // The user's dataset: 4 classes of 200 files of 10 × 10, all owned by nobody; and a
    // folder of theirs outside it to park a class folder in.
    let data = base.path().join("data");
    let holder = base.path().join("holder");
    std::fs::create_dir(&holder).unwrap();
    let per_file = jpeg(10, 10).len() as u64;
    let classes: Vec<_> = (0..4).map(|c| data.join(format!("c{c}"))).collect();
    for class in &classes {
        std::fs::create_dir_all(class).unwrap();
        for i in 0..200 {
            std::fs::write(class.join(format!("{i:02}.jpg")), jpeg(10, 10)).unwrap();
        }
    }
    let status = std::process::Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(&data)
        .arg(&holder)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::metadata(&classes[2]).unwrap().uid(), NOBODY);
    let (files, bytes) = (800u64, 800 * per_file);

    let (orders, inbox) = std::sync::mpsc::channel();
    let (mut scans, mut met) = (0u32, 0u32);
    std::thread::scope(|s| {
        s.spawn(|| attacker(&data, &classes, &holder, &secret, inbox));
        // Moved in: a failed assertion drops it, and the attacker, disconnected, ends.
        let orders = orders;
        let started = Instant::now();
        while scans < 40 && started.elapsed() < Duration::from_secs(60) {
            let r = ramvram::inputs::dataset::scan(&data).unwrap();
            scans += 1;
            let (answer, answered) = std::sync::mpsc::channel();
            orders.send(Order::Restore(answer)).unwrap();
            answered.recv().unwrap();
            // Never more than the folder holds, never the secret's image size.
            assert!(r.files <= files, "scan {scans} counted {} files", r.files);
            assert!(r.bytes <= bytes, "scan {scans} counted {} bytes", r.bytes);
            assert_eq!(r.image_size, Some((10, 10)), "scan {scans}");
            assert!(r.class_folders <= 4);
            // The swapped class was met as a link (or, had it been read first, fully).
            if r.links_skipped > 0 {
                met += 1;
                assert_eq!(r.files, 600, "scan {scans}: the other three classes");
            }
        }
        orders.send(Order::Stop).unwrap();
    });
    println!("{scans} scans, {met} met a class folder swapped for a link after listing");
    // The race was run: at least one scan met a folder swapped after it was listed (the
    // attacker swaps as soon as the first class is opened; a busy machine may delay it).
    assert!(met >= 1, "{met} of {scans}");
}
