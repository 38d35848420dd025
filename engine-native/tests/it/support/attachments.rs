//! The vault of the attachment tests (`tools::attachments` in `it` and in `faults`): a PNG
//! embedded and linked from three notes (one under `Secret/`) and a PDF.

use serde_json::json;

use crate::support::dispatch::Fixture;

/// The bytes of `assets/pic.png`.
pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\nfake";

/// A fixture (throttle off, `extra` merged into its config) whose `main` vault holds
/// `assets/pic.png`, `assets/doc.pdf` and the notes `Open/a.md`, `Open/b.md` and `Secret/c.md`
/// that embed or link them; not indexed.
pub fn fixture(extra: serde_json::Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), serde_json::Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    let fx = Fixture::new(config);
    let dir = fx.vault_dir("main");
    std::fs::create_dir_all(dir.join("assets")).expect("folder");
    std::fs::write(dir.join("assets/pic.png"), PNG).expect("png");
    std::fs::write(dir.join("assets/doc.pdf"), b"%PDF-1.4").expect("pdf");
    fx.write(
        "main",
        "Open/a.md",
        "see ![[pic.png]] and [[pic.png|the pic]]\n",
    );
    fx.write("main", "Open/b.md", "md link ![alt](../assets/pic.png)\n");
    fx.write("main", "Secret/c.md", "![[pic.png]] ![[doc.pdf]]\n");
    fx
}
