//! The vault filesystem backend: the only way handlers touch files.
//!
//! Every request names a vault-relative path. It is validated lexically by engine-core
//! (NFC, no `..`, no absolute or backslash paths), refused if it names a control folder
//! (`.obsidian`, `.git`, `.trash`, case-folded), matched against NFC or NFD names on disk,
//! and canonicalized: a symlink leading outside the vault, or into a control folder, is
//! refused. Files are read through one opened descriptor (`O_NOFOLLOW`, `fstat` on the
//! same descriptor); writes are atomic (temp file, fsync, rename, fsync of the folder);
//! deletes go to `<vault>/.trash/` by default. Mutations that carry an `expected_sha256`
//! fail with `ConcurrentModification` when the file changed since it was read. While a tool
//! call is recorded ([`journal::record`]), every mutation first remembers the file as it was,
//! for snapshots and undo. Calls that write take turns on each file ([`queue`]), in this
//! process and across processes (`lock`): a read-modify-write of one note is not interleaved
//! with another obsidian-tc call's write of it.
//!
//! # Where `Vault`'s methods are
//!
//! [`Vault`] is declared in `handle.rs`; its methods are spread by concern:
//!
//! - `handle.rs`: [`Vault::open`], [`Vault::root`], [`Vault::options`], the commit lock.
//! - `read.rs`: [`Vault::read`]; `listing.rs`: [`Vault::list`]; `settings.rs`:
//!   [`Vault::read_setting`], [`Vault::setting_stamp`].
//! - `write.rs`: [`Vault::write`]; `transfer.rs`: [`Vault::move_file`], [`Vault::copy_file`];
//!   `trash.rs`: [`Vault::trash`], [`Vault::remove`]; `precondition.rs`: the
//!   `expected_sha256` check every mutation makes.
//! - `journal.rs`: [`Vault::remember_path`] and what every mutation remembers for undo;
//!   `queue.rs`: the turn each call takes on a file.
//! - `cleanup.rs`: [`Vault::remove_stale_temp_files`].
//! - `excluded.rs`: the excluded files (Obsidian's "Excluded files", `index.exclude`),
//!   [`ExclusionCache`].

mod atomic;
mod cleanup;
mod error;
mod excluded;
pub mod fault;
mod folders;
mod handle;
pub mod journal;
mod listing;
mod lock;
mod names;
pub(crate) mod os;
mod precondition;
pub mod queue;
mod read;
mod resolve;
mod settings;
mod text_file;
mod transfer;
mod trash;
mod walk;
mod write;

pub use atomic::is_temp_name;
// Crash-safe replacement of a file: `obsidian-tc setup` writes client configurations with it.
pub(crate) use atomic::{Replace, write_file, write_file_unless_changed};
pub use error::VaultError;
pub use excluded::{ExclusionCache, Exclusions, USER_IGNORE_FILTERS, user_ignore_filters};
pub use handle::{Vault, VaultOptions};
pub use listing::{ChangeStamp, Entry, EntryKind, racy_since};
pub use read::NoteFile;
pub(crate) use resolve::relative_text;
pub use settings::ObsidianSetting;
pub use text_file::{LineEnding, TextFile};
pub use write::{WriteOptions, WriteOutcome};
