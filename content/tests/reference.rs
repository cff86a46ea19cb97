//! `docs/content.md` is the output of `reference_markdown()`, so the authoring reference cannot
//! drift from the schema that validates content. After a schema change, regenerate it with
//! `LUDUS_BLESS=1 cargo test -p ludus-content --test reference`.

use ludus_content::reference_markdown;
use std::fs;
use std::path::Path;

#[test]
fn docs_content_md_is_the_generated_reference() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/content.md");
    let generated = reference_markdown();
    if std::env::var("LUDUS_BLESS").is_ok_and(|v| v == "1") {
        fs::write(&path, &generated)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let on_disk = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "docs/content.md differs from reference_markdown(); regenerate it with \
         `LUDUS_BLESS=1 cargo test -p ludus-content --test reference`"
    );
}
