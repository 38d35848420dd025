//! [`SharedInitializers`]: an ONNX file's large initializers (weights) handed to ONNX Runtime
//! as views of the memory-mapped file, so that the sessions of one graph
//! ([`super::onnx::OnnxGraph`] runs one per lane) share one copy, and only the pages a run
//! reads are resident. A session given an initializer by name (`SessionOptions::AddInitializer`)
//! uses that value as it is instead of building its own from the file.
//!
//! What it saves (issue 35, the default model's int8 stand-in): its word-piece table is 96 MB
//! of the 118 MB file, one row of 384 bytes per piece of a 250,002-piece vocabulary, and a
//! vault reads few of them (pf2e-srd's 11,181 notes use 17,406 pieces, on 10,311 pages of the
//! table: 40 MiB).
//!
//! The file is read with `prost` and a few message types of ONNX's `onnx.proto` written out
//! below (only the fields read here; the decoder skips the rest, and slices the raw data out
//! of the mapped file without copying it): no crate of the ONNX schema is kept up to date,
//! and these three messages are all this needs.

use std::ffi::CString;
use std::fs::File;
use std::path::Path;

use memmap2::Mmap;
use ort::AsPointer;
use ort::memory::MemoryInfo;
use ort::session::builder::SessionBuilder;
use ort::value::{
    DynValue, DynValueRefMut, PrimitiveTensorElementType, Shape, Tensor, TensorRefMut,
};
use prost::Message;
use prost::bytes::Bytes;

use crate::embed::error::EmbedError;

/// The smallest initializer worth sharing, in bytes: the word-piece embedding table. The
/// matrices of the layers stay each session's own: ONNX Runtime repacks them for its kernels
/// and frees the file's copy (sessions of one graph share the repacked ones).
const SHARED_FROM_BYTES: usize = 4 << 20;

/// ONNX `TensorProto.DataType` values this reader shares.
const FLOAT: i32 = 1;
const UINT8: i32 = 2;
const INT8: i32 = 3;
/// ONNX `TensorProto.DataLocation.EXTERNAL`: the data lives in another file (not shared).
const EXTERNAL: i32 = 1;

/// `onnx.ModelProto`: only its graph.
#[derive(Clone, PartialEq, Message)]
struct ModelProto {
    #[prost(message, optional, tag = "7")]
    graph: Option<GraphProto>,
}

/// `onnx.GraphProto`: only its initializers.
#[derive(Clone, PartialEq, Message)]
struct GraphProto {
    #[prost(message, repeated, tag = "5")]
    initializer: Vec<TensorProto>,
}

/// `onnx.TensorProto`: a tensor stored as raw little-endian bytes.
#[derive(Clone, PartialEq, Message)]
struct TensorProto {
    #[prost(int64, repeated, tag = "1")]
    dims: Vec<i64>,
    #[prost(int32, tag = "2")]
    data_type: i32,
    #[prost(string, tag = "8")]
    name: String,
    #[prost(bytes = "bytes", tag = "9")]
    raw_data: Bytes,
    #[prost(int32, tag = "14")]
    data_location: i32,
}

/// The large initializers of one ONNX file, as values ONNX Runtime sessions can be given.
/// They must outlive every session given them.
pub struct SharedInitializers {
    values: Vec<(CString, Shared)>,
    /// The mapped model file the views point into.
    _file: Bytes,
}

/// One shared initializer.
enum Shared {
    /// A view of the mapped file.
    View(DynValueRefMut<'static>),
    /// A copy (f32 data not aligned to 4 bytes in the file).
    Copy(DynValue),
}

impl SharedInitializers {
    /// The initializers of `model_file` of at least 4 MiB stored in the file
    /// as raw f32, u8 or i8 data (others stay each session's own).
    pub fn read(model_file: &Path) -> Result<SharedInitializers, EmbedError> {
        let unreadable = |message: String| {
            EmbedError::setup(
                "local",
                format!(
                    "cannot read the weights of {}: {message}",
                    model_file.display()
                ),
            )
        };
        let file = File::open(model_file).map_err(|e| unreadable(e.to_string()))?;
        // SAFETY: the mapping is read-only, and model files are not written in place: a
        // download lands under a temporary name and is renamed into the cache, so the file
        // mapped here keeps its bytes for as long as it is mapped. (A model folder the user
        // names is theirs: rewriting its ONNX file in place under a running server is not
        // supported, as the guide says.)
        let map = unsafe { Mmap::map(&file) }.map_err(|e| unreadable(e.to_string()))?;
        // Each page read where it is needed, no read-ahead: a run reads scattered rows.
        #[cfg(unix)]
        map.advise(memmap2::Advice::Random)
            .map_err(|e| unreadable(e.to_string()))?;
        let bytes = Bytes::from_owner(map);
        let model = ModelProto::decode(bytes.clone()).map_err(|e| unreadable(e.to_string()))?;
        let mut values = Vec::new();
        for tensor in model.graph.map(|g| g.initializer).unwrap_or_default() {
            if tensor.raw_data.len() < SHARED_FROM_BYTES || tensor.data_location == EXTERNAL {
                continue;
            }
            let (Ok(shape), Ok(name)) = (
                tensor
                    .dims
                    .iter()
                    .map(|&d| usize::try_from(d).map(|_| d))
                    .collect::<Result<Vec<i64>, _>>(),
                CString::new(tensor.name.as_str()),
            ) else {
                continue;
            };
            let shared = match tensor.data_type {
                UINT8 => Shared::view::<u8>(&tensor.raw_data, shape),
                INT8 => Shared::view::<i8>(&tensor.raw_data, shape),
                FLOAT if tensor.raw_data.as_ptr().align_offset(4) == 0 => {
                    Shared::view::<f32>(&tensor.raw_data, shape)
                }
                FLOAT => Tensor::from_array((shape, little_endian_f32(&tensor.raw_data)))
                    .map(|copy| Shared::Copy(copy.into_dyn())),
                _ => continue,
            }
            .map_err(|e| unreadable(format!("initializer {}: {e}", tensor.name)))?;
            values.push((name, shared));
        }
        Ok(SharedInitializers {
            values,
            _file: bytes,
        })
    }

    /// `builder` given every shared initializer by name.
    pub fn give(&self, mut builder: SessionBuilder) -> ort::Result<SessionBuilder> {
        for (name, shared) in &self.values {
            let value = match shared {
                Shared::View(view) => view.ptr(),
                Shared::Copy(copy) => copy.ptr(),
            };
            // SAFETY: both pointers are live; ONNX Runtime keeps the value without copying it,
            // and `self` outlives the session (`OnnxGraph` drops its sessions first).
            unsafe {
                ort::Error::result_from_status((ort::api().AddInitializer)(
                    builder.ptr_mut(),
                    name.as_ptr(),
                    value,
                ))?;
            }
        }
        Ok(builder)
    }

    /// Drops `model_file`'s pages from the system's file cache once the sessions are built
    /// (they were read to check its digest and by ONNX Runtime to build them), so that the
    /// shared views map only the pages runs read: a page fault maps the pages around it that
    /// are cached, and with the whole file cached a run's scattered rows mapped nearly all of
    /// the table (pf2e-srd: 87 MiB of it resident, against 40 MiB of pages it reads). Pages
    /// another process maps stay cached, and are shared with it. Only where the system has
    /// `posix_fadvise` (Linux); elsewhere nothing changes.
    pub fn release_cached_pages(&self, model_file: &Path) {
        #[cfg(target_os = "linux")]
        if !self.values.is_empty()
            && let Ok(file) = File::open(model_file)
        {
            use std::os::fd::AsRawFd;
            // SAFETY: posix_fadvise only advises the kernel about a descriptor held open here.
            unsafe {
                libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = model_file;
    }
}

impl Shared {
    /// A tensor of `shape` viewing `raw` (in the mapped file, aligned for `T`) in place.
    fn view<T: PrimitiveTensorElementType + std::fmt::Debug>(
        raw: &Bytes,
        shape: Vec<i64>,
    ) -> ort::Result<Shared> {
        let shape = Shape::new(shape);
        if shape.num_elements().checked_mul(size_of::<T>()) != Some(raw.len()) {
            return Err(ort::Error::new(format!(
                "{} bytes do not hold a tensor of shape {shape:?}",
                raw.len()
            )));
        }
        // SAFETY: `raw` points into the mapped file that `SharedInitializers` keeps for as
        // long as the view lives, holds exactly the shape's elements, and is aligned for `T`
        // (the caller checks f32; bytes need no alignment). ONNX Runtime only reads
        // initializers.
        let view: TensorRefMut<'static, T> = unsafe {
            TensorRefMut::from_raw(MemoryInfo::default(), raw.as_ptr().cast_mut().cast(), shape)
        }?;
        Ok(Shared::View(view.into_dyn()))
    }
}

/// `raw` read as little-endian f32 values (a trailing partial value is dropped).
fn little_endian_f32(raw: &[u8]) -> Vec<f32> {
    raw.chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Shared, SharedInitializers};
    use std::path::PathBuf;

    #[test]
    fn the_word_piece_table_is_shared_as_a_view_of_the_file_and_nothing_small_is() {
        let (Some(folder), Ok(library)) = (
            std::env::var_os("OBSIDIAN_TC_TEST_ONNX_MODEL"),
            std::env::var(super::super::onnx_library::LIBRARY_VAR),
        ) else {
            eprintln!(
                "skipped: OBSIDIAN_TC_TEST_ONNX_MODEL or the ONNX Runtime library is not set"
            );
            return;
        };
        super::super::onnx_library::load_library(std::path::Path::new(&library))
            .expect("the library loads");
        let file = PathBuf::from(folder).join("onnx/model_qint8_avx512_vnni.onnx");
        let shared = SharedInitializers::read(&file).expect("readable");
        let names: Vec<&str> = shared
            .values
            .iter()
            .map(|(n, _)| n.to_str().unwrap())
            .collect();
        // all-MiniLM-L6-v2 int8 (i8 data): 30,522 pieces × 384 bytes (11.7 MB); the layers' matrices
        // (at most 1536 × 384) stay the sessions' own.
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(names[0].contains("word"), "{names:?}");
        let Shared::View(view) = &shared.values[0].1 else {
            panic!("u8 data is viewed in place, not copied");
        };
        let shape: Vec<i64> = view.dtype().tensor_shape().expect("a tensor").to_vec();
        assert_eq!(shape, [30_522, 384]);
    }
}
