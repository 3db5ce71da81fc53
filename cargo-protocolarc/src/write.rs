//! Writing the files the CLI produces (`protocolarc.lock`, `report --out`,
//! `changelog --out`) so that no interruption leaves a cut file and no
//! committed link can redirect the write.
//!
//! The bytes go to a new temporary file beside the target (created
//! exclusively, so no link is followed), are flushed to disk, and the
//! temporary file is renamed over the target: a reader sees the old content or
//! the new, never a part. A target that is a symbolic link (dangling or not)
//! or not a regular file is refused: replace it with a regular file first.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::{io_reason, Failure};

/// Replaces `path`'s content with `bytes`, atomically. The temporary files a
/// killed earlier run left beside `path` are removed first.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let shown = path.display();
    replaceable(path)?;
    if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        clear_leftovers(dir, |n| n == name.to_string_lossy());
    }
    let fail = |e: std::io::Error| Failure::Input(format!("{shown}: cannot write: {}", io_reason(&e)));
    let tmp = temporary(path);
    let result = (|| {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Ok(meta) = std::fs::metadata(path) {
            // Keep the permissions of the file being replaced.
            file.set_permissions(meta.permissions())?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(fail)
}

/// Refuses a target that is a symbolic link (dangling or not) or not a
/// regular file; a missing target is fine.
fn replaceable(path: &Path) -> Result<(), Failure> {
    let shown = path.display();
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(Failure::Input(format!(
            "{shown}: is a symbolic link; refusing to write through it (replace it with a regular file)"
        ))),
        Ok(meta) if !meta.is_file() => {
            Err(Failure::Input(format!("{shown}: is not a regular file; refusing to replace it")))
        }
        _ => Ok(()),
    }
}

/// Writes every `(file name, bytes)` into `dir` (created if missing), all or
/// nothing: each target is checked first (no link, no directory), the files
/// are written and flushed in a staging directory under `dir`
/// (`.protocolarc-stage.PID.N.tmp`), then renamed into place, each rename
/// atomic. A failure before the renames leaves `dir` as it was. What a killed
/// run left (staging directories, temporary files of these targets) carries
/// its process id and is removed by the next run.
pub(crate) fn write_set(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<Vec<PathBuf>, Failure> {
    let targets: Vec<PathBuf> = files.iter().map(|(name, _)| dir.join(name)).collect();
    for target in &targets {
        replaceable(target)?;
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::Input(format!("{}: cannot create directory: {}", dir.display(), io_reason(&e))))?;
    clear_leftovers(dir, |n| n == STAGE || files.iter().any(|(name, _)| name == n));
    let stage = temporary(&dir.join(STAGE));
    let fail = |e: std::io::Error| Failure::Input(format!("{}: cannot write: {}", stage.display(), io_reason(&e)));
    std::fs::create_dir(&stage).map_err(fail)?;
    let staged = (|| {
        for (name, bytes) in files {
            let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(stage.join(name))?;
            file.write_all(bytes)?;
            file.sync_all()?;
        }
        Ok(())
    })();
    if let Err(e) = staged {
        let _ = std::fs::remove_dir_all(&stage);
        return Err(fail(e));
    }
    for ((name, _), target) in files.iter().zip(&targets) {
        if let Ok(meta) = std::fs::metadata(target) {
            // Keep the permissions of the file being replaced.
            let _ = std::fs::set_permissions(stage.join(name), meta.permissions());
        }
        std::fs::rename(stage.join(name), target)
            .map_err(|e| Failure::Input(format!("{}: cannot write: {}", target.display(), io_reason(&e))))?;
    }
    std::fs::remove_dir(&stage).map_err(fail)?;
    Ok(targets)
}

/// The name a staging directory of [`write_set`] is formed from.
const STAGE: &str = "protocolarc-stage";

/// `.NAME.PID.N.tmp` beside `path`.
fn temporary(path: &Path) -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let name = path.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// The `NAME` and process id of a temporary name `.NAME.PID.N.tmp`.
fn leftover(file_name: &str) -> Option<(&str, u32)> {
    let inner = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (rest, n) = inner.rsplit_once('.')?;
    let (name, pid) = rest.rsplit_once('.')?;
    n.parse::<u64>().ok()?;
    Some((name, pid.parse().ok()?))
}

/// Removes from `dir` the temporaries `.NAME.PID.N.tmp` (files or staging
/// directories) whose `NAME` is `ours` and whose process is gone: a run
/// still going keeps its own.
fn clear_leftovers(dir: &Path, ours: impl Fn(&str) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some((target, pid)) = name.to_str().and_then(leftover) else { continue };
        if !ours(target) || running(pid) {
            continue;
        }
        let path = entry.path();
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => {
                let _ = std::fs::remove_dir_all(&path);
            }
            Ok(_) => {
                let _ = std::fs::remove_file(&path);
            }
            Err(_) => {}
        }
    }
}

/// Whether process `pid` is running (this one included).
fn running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
        // Signal 0 checks the process exists; EPERM means it does, owned by another user.
        // SAFETY: kill with signal 0 sends nothing; it only reports.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        alive || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        // Without a portable liveness check, a leftover is assumed to be a
        // concurrent run's and kept.
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("protocolarc-write-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn replaces_content_and_leaves_no_temporary_file() {
        let d = dir("replace");
        let target = d.join("protocolarc.lock");
        std::fs::write(&target, b"old").unwrap();
        write_atomic(&target, b"new content").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new content");
        let names: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("protocolarc.lock")]);
        // A write that cannot happen (no such directory) leaves nothing behind.
        let err = write_atomic(&d.join("no/such/dir/x"), b"x").unwrap_err();
        assert!(matches!(err, Failure::Input(m) if m.ends_with("cannot write: no such file or directory")));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_refused_and_left_alone() {
        let d = dir("links");
        let victim = d.join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        let link = d.join("protocolarc.lock");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let err = write_atomic(&link, b"x").unwrap_err();
        assert!(matches!(&err, Failure::Input(m) if m.ends_with(
            "protocolarc.lock: is a symbolic link; refusing to write through it (replace it with a regular file)")));
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        // A dangling link creates nothing where it points.
        let dangling = d.join("dangling.lock");
        std::os::unix::fs::symlink(d.join("created"), &dangling).unwrap();
        assert!(write_atomic(&dangling, b"x").is_err());
        assert!(!d.join("created").exists());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
