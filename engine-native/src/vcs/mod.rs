//! Git for a vault folder, natively (no `git` CLI, no Obsidian plugin): status, the diff of
//! one file, the history of the vault or of one file, a file's recorded content, staging
//! and committing, over the repository that holds the vault.
//!
//! The repository is found from the vault folder upward, so the vault may be the whole
//! working tree or a folder of a larger repository ([`VaultRepo::open`]). Every path this
//! module takes and gives is vault-relative; nothing outside the vault folder is shown,
//! diffed, staged or logged: status and diffs are limited to the folder, the history lists
//! only commits that changed it, and a commit is refused while files outside the vault are
//! staged ([`VcsError::StagedOutsideVault`]: they are someone else's, the server never
//! commits them; the error says to commit or unstage them with git first). Paths beyond a
//! symbolic link are refused, like git does. The folder ACL is the tools' concern
//! (`tools/git`); this module never reads `.git/` through the vault's file API either.
//!
//! # The library: git2 (libgit2, vendored), measured against gitoxide
//!
//! Both were built cold in a scratch crate with nothing else (`cargo build --release`, 2
//! cores shared with other builds, load 5 to 7, so CPU seconds are the figure to compare)
//! and timed on pf2e-srd committed as one repository (11,181 files, six commits, one file
//! changed in the working tree), each the median of 15 runs in one process:
//!
//! | crate (features) | cold build CPU s (wall s) | binary growth | status | log of 20 | one file's history |
//! |---|---|---|---|---|---|
//! | `git2` 0.21 (`vendored-libgit2`, static zlib) | 72 (171) | +1.2 MB | 79 ms | 0.20 ms | 0.59 ms |
//! | `gix` 0.90 (`sha1`, `status`, `blob-diff` only) | 156 (283) | +5.5 MB | 87 ms | 0.25 ms | 0.72 ms |
//!
//! (`git status` of the git CLI on the same repository: 40 to 50 ms, with its index
//! extensions.) git2 costs half the build and a fifth of the size at the same speed, and it
//! does all six operations itself: gitoxide 0.90 has no `git add` or commit-from-index, so
//! staging would mean writing index entries and trees by hand. libgit2 is C, so the cross
//! builds need a C compiler, which they have already for SQLite: the scratch crate built
//! for `x86_64-pc-windows-gnu` with mingw-w64 and passed `cargo-zigbuild clippy` for
//! `aarch64-apple-darwin` and `x86_64-apple-darwin` (tests/apple/check.sh's tools). No
//! network transport (no SSH, HTTPS or OpenSSL) is built: the tools never fetch or push.
//!
//! - [`repo`]: [`VaultRepo`], the repository of a vault and the path mapping;
//! - [`mod@status`], [`mod@diff`], [`mod@log`], [`mod@show`]: what the repository says;
//! - [`mod@stage`], [`mod@commit`]: the two changes;
//! - [`error`][]: [`VcsError`].

pub mod commit;
pub mod diff;
pub mod error;
pub mod log;
pub mod repo;
pub mod show;
pub mod stage;
pub mod status;

pub use commit::{Committed, commit, commit_ready};
pub use diff::{FileDiff, MAX_DIFF_BYTES, diff_file};
pub use error::VcsError;
pub use log::{History, LogEntry, MAX_MESSAGE_CHARS, log};
pub use repo::VaultRepo;
pub use show::{At, Recorded, show};
pub use stage::stage;
pub use status::{Change, FileChange, StatusReport, status};
