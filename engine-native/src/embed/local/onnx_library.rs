//! ONNX Runtime's shared library, found and loaded up front (the `ort` crate loads it at run
//! time, feature `load-dynamic`; nothing is downloaded at build time). [`locate_library`]
//! looks, in order, at the file `OBSIDIAN_TC_ONNXRUNTIME` names, the file `ORT_DYLIB_PATH`
//! names, the executable's folder (`libonnxruntime.so*`, `libonnxruntime*.dylib`,
//! `onnxruntime.dll`), then `<executable's folder>/../lib`. [`load_library`] checks that the
//! file is ONNX Runtime of a version `ort` can drive before handing it to `ort`, so a missing
//! or wrong file is a typed [`OnnxLibraryError`] at once, never a panic or a hang later.
//!
//! ONNX Runtime can be loaded once per process: the first library loaded serves every later
//! [`load_library`], whatever file it is given (after that file passed the same checks).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use ort::environment::Environment;

use crate::embed::error::EmbedError;
use crate::embed::hub::cache::Env;

/// The variable naming the ONNX Runtime library file, looked at first.
pub const LIBRARY_VAR: &str = "OBSIDIAN_TC_ONNXRUNTIME";

/// The `ort` crate's own variable naming the library file, looked at second.
pub const ORT_LIBRARY_VAR: &str = "ORT_DYLIB_PATH";

/// What to do when the library cannot be had.
const WHAT_TO_DO: &str = "install ONNX Runtime (1.17 or newer; `pip install onnxruntime` \
     carries it in onnxruntime/capi/) and set OBSIDIAN_TC_ONNXRUNTIME to the library file, or \
     copy the library next to the obsidian-tc executable; or set embeddings.engine to \
     \"candle\" to use the built-in engine";

/// Why ONNX Runtime could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnnxLibraryError {
    /// A variable names a file that does not exist.
    Missing {
        /// The variable.
        var: &'static str,
        /// The file it names.
        path: PathBuf,
    },
    /// No library at any of the places looked at.
    NotFound {
        /// The places looked at, in order.
        looked: Vec<String>,
    },
    /// The file is not an ONNX Runtime library this system can load.
    NotLoadable {
        /// The file.
        path: PathBuf,
        /// What the loader said, when it said something.
        reason: String,
    },
    /// The library is older than the ONNX Runtime API `ort` needs.
    TooOld {
        /// The file.
        path: PathBuf,
        /// Its minor version (`1.x`).
        minor: u32,
    },
    /// The library loaded, but its environment could not be made.
    Environment {
        /// What ONNX Runtime said.
        message: String,
    },
}

impl fmt::Display for OnnxLibraryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OnnxLibraryError::Missing { var, path } => write!(
                f,
                "ONNX Runtime: {var} names {}, which is not a file: {WHAT_TO_DO}",
                path.display()
            ),
            OnnxLibraryError::NotFound { looked } => write!(
                f,
                "ONNX Runtime library not found (looked at {}): {WHAT_TO_DO}",
                looked.join(", ")
            ),
            OnnxLibraryError::NotLoadable { path, reason } => write!(
                f,
                "ONNX Runtime: {} is not an ONNX Runtime library this system can load ({reason}): \
                 {WHAT_TO_DO}",
                path.display()
            ),
            OnnxLibraryError::TooOld { path, minor } => write!(
                f,
                "ONNX Runtime: {} is version 1.{minor}, older than the 1.{} this build needs: \
                 {WHAT_TO_DO}",
                path.display(),
                ort::MINOR_VERSION
            ),
            OnnxLibraryError::Environment { message } => write!(
                f,
                "ONNX Runtime loaded but could not start ({message}): {WHAT_TO_DO}"
            ),
        }
    }
}

impl std::error::Error for OnnxLibraryError {}

impl From<OnnxLibraryError> for EmbedError {
    fn from(error: OnnxLibraryError) -> EmbedError {
        EmbedError::setup("local", error.to_string())
    }
}

/// ONNX Runtime, loaded.
pub struct OnnxRuntime {
    /// The library file loaded.
    pub library: PathBuf,
    /// Its minor version (`1.x`).
    pub minor: u32,
    /// The process's ONNX Runtime environment, which sessions are made under.
    pub environment: Environment,
}

/// The library file: the first of the places in this module's documentation that has one.
/// `env` reads the variables; `exe_dir` is the executable's folder (`None`: not known).
pub fn locate_library(env: Env<'_>, exe_dir: Option<&Path>) -> Result<PathBuf, OnnxLibraryError> {
    for var in [LIBRARY_VAR, ORT_LIBRARY_VAR] {
        if let Some(value) = env(var).filter(|v| !v.trim().is_empty()) {
            let path = PathBuf::from(value.trim());
            return if path.is_file() {
                Ok(path)
            } else {
                Err(OnnxLibraryError::Missing { var, path })
            };
        }
    }
    let mut looked = vec![format!("{LIBRARY_VAR} and {ORT_LIBRARY_VAR} (not set)")];
    let dirs = exe_dir
        .map(|dir| [dir.to_path_buf(), dir.join("..").join("lib")])
        .into_iter()
        .flatten();
    for dir in dirs {
        if let Some(found) = library_in(&dir) {
            return Ok(found);
        }
        looked.push(dir.display().to_string());
    }
    Err(OnnxLibraryError::NotFound { looked })
}

/// The ONNX Runtime library in `dir`, if any (the first by name when there are several).
fn library_in(dir: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_file())
        .filter(|entry| is_library_name(&entry.file_name().to_string_lossy()))
        .map(|entry| entry.path())
        .collect();
    found.sort();
    found.into_iter().next()
}

/// Whether `name` is an ONNX Runtime library's file name on Linux (`libonnxruntime.so`,
/// `libonnxruntime.so.1.32.0`), macOS (`libonnxruntime.dylib`, `libonnxruntime.1.32.0.dylib`)
/// or Windows (`onnxruntime.dll`); its provider libraries are not.
fn is_library_name(name: &str) -> bool {
    let linux = name == "libonnxruntime.so" || name.starts_with("libonnxruntime.so.");
    let mac = name.starts_with("libonnxruntime")
        && name.ends_with(".dylib")
        && !name.contains("_providers");
    linux || mac || name.eq_ignore_ascii_case("onnxruntime.dll")
}

/// The library of [`locate_library`] (with the running executable's folder), loaded.
pub fn load(env: Env<'_>) -> Result<&'static OnnxRuntime, OnnxLibraryError> {
    let exe = std::env::current_exe().ok();
    let path = locate_library(env, exe.as_deref().and_then(Path::parent))?;
    load_library(&path)
}

/// The library `path`, checked and loaded (or the one loaded before, see the module
/// documentation).
pub fn load_library(path: &Path) -> Result<&'static OnnxRuntime, OnnxLibraryError> {
    static LOADED: Mutex<Option<&'static OnnxRuntime>> = Mutex::new(None);
    let minor = match ort::util::probe(path) {
        Some(minor) if minor >= ort::MINOR_VERSION => minor,
        Some(minor) => {
            return Err(OnnxLibraryError::TooOld {
                path: path.to_path_buf(),
                minor,
            });
        }
        None => {
            return Err(OnnxLibraryError::NotLoadable {
                path: path.to_path_buf(),
                reason: "not a shared library of this system, missing one it depends on, or \
                         without ONNX Runtime's OrtGetApiBase"
                    .to_owned(),
            });
        }
    };
    let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(runtime) = *loaded {
        if runtime.library != path {
            tracing::debug!(
                "ONNX Runtime is loaded from {} already; {} is not loaded too",
                runtime.library.display(),
                path.display()
            );
        }
        return Ok(runtime);
    }
    let environment = ort::init_from(path)
        .map_err(|e| OnnxLibraryError::NotLoadable {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?
        .with_name("obsidian-tc")
        .with_telemetry(false)
        .build()
        .map_err(|e| OnnxLibraryError::Environment {
            message: e.to_string(),
        })?;
    tracing::info!("ONNX Runtime 1.{minor} loaded from {}", path.display());
    let runtime: &'static OnnxRuntime = Box::leak(Box::new(OnnxRuntime {
        library: path.to_path_buf(),
        minor,
        environment,
    }));
    *loaded = Some(runtime);
    Ok(runtime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_names_of_each_system_and_not_its_providers() {
        for name in [
            "libonnxruntime.so",
            "libonnxruntime.so.1.32.0",
            "libonnxruntime.dylib",
            "libonnxruntime.1.32.0.dylib",
            "onnxruntime.dll",
        ] {
            assert!(is_library_name(name), "{name}");
        }
        for name in [
            "libonnxruntime_providers_shared.so",
            "libonnxruntime_providers_shared.dylib",
            "onnxruntime_providers_shared.dll",
            "libonnxruntime.so-old",
        ] {
            assert!(!is_library_name(name), "{name}");
        }
    }

    #[test]
    fn the_variables_come_first_then_the_executables_folder_then_its_lib() {
        let root = tempfile::tempdir().expect("tempdir");
        let bin = root.path().join("bin");
        let lib = root.path().join("lib");
        std::fs::create_dir_all(&bin).expect("mkdir");
        std::fs::create_dir_all(&lib).expect("mkdir");
        std::fs::write(lib.join("libonnxruntime.so.1.32.0"), "x").expect("write");
        std::fs::write(bin.join("libonnxruntime_providers_shared.so"), "x").expect("write");
        let none = |_: &str| None;
        let found = locate_library(&none, Some(&bin)).expect("in ../lib");
        assert_eq!(
            found.file_name(),
            lib.join("libonnxruntime.so.1.32.0").file_name()
        );
        std::fs::write(bin.join("libonnxruntime.so"), "x").expect("write");
        assert_eq!(
            locate_library(&none, Some(&bin)),
            Ok(bin.join("libonnxruntime.so"))
        );
        let named = lib.join("libonnxruntime.so.1.32.0").display().to_string();
        let ort_var = |name: &str| (name == ORT_LIBRARY_VAR).then(|| named.clone());
        assert_eq!(
            locate_library(&ort_var, Some(&bin)),
            Ok(lib.join("libonnxruntime.so.1.32.0"))
        );
        let both = |name: &str| match name {
            LIBRARY_VAR => Some("/nonexistent/libonnxruntime.so".to_owned()),
            _ => Some(named.clone()),
        };
        assert_eq!(
            locate_library(&both, Some(&bin)),
            Err(OnnxLibraryError::Missing {
                var: LIBRARY_VAR,
                path: PathBuf::from("/nonexistent/libonnxruntime.so")
            }),
            "a variable set wrong is an error, not skipped"
        );
    }

    #[test]
    fn nothing_found_says_where_it_looked_and_what_to_do() {
        let empty = tempfile::tempdir().expect("tempdir");
        let error = locate_library(&|_: &str| None, Some(empty.path()))
            .expect_err("nothing there")
            .to_string();
        assert!(error.contains(LIBRARY_VAR), "{error}");
        assert!(
            error.contains(&empty.path().display().to_string()),
            "{error}"
        );
        assert!(error.contains("lib"), "{error}");
        assert!(error.contains("embeddings.engine"), "{error}");
    }
}
