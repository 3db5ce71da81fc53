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

/// Replaces `path`'s content with `bytes`, atomically.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let shown = path.display();
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(Failure::Input(format!(
                "{shown}: is a symbolic link; refusing to write through it (replace it with a regular file)"
            )));
        }
        Ok(meta) if !meta.is_file() => {
            return Err(Failure::Input(format!("{shown}: is not a regular file; refusing to replace it")));
        }
        _ => {}
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

/// `.NAME.PID.N.tmp` beside `path`.
fn temporary(path: &Path) -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let name = path.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
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
