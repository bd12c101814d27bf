//! Selects the platform: the one `src/platform/<name>.rs` whose name is an enabled cargo
//! feature (with `-` for `_`). Generates the module declaration for it and puts its linker
//! script on the search path: `src/platform/<name>/memory.x`, or that of the family it
//! belongs to (`earlgrey_2024` falls back to `earlgrey/memory.x`). Adding a platform is
//! therefore its file and its feature, nothing here. On Earl Grey it also builds the OTBN
//! programs (`build/otbn.rs`). On every platform it places the measured code in a block of its
//! own (`build/layout.rs`).

use std::path::{Path, PathBuf};

#[path = "build/layout.rs"]
mod layout;
#[path = "build/layout_rules.rs"]
mod layout_rules;
#[path = "build/otbn.rs"]
mod otbn;

fn main() {
    let dir = Path::new("src/platform");
    let platforms: Vec<String> = std::fs::read_dir(dir)
        .expect("src/platform exists")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.strip_suffix(".rs").map(str::to_owned)
        })
        .collect();
    let selected: Vec<&String> = platforms
        .iter()
        .filter(|p| std::env::var_os(format!("CARGO_FEATURE_{}", p.to_uppercase())).is_some())
        .collect();
    let [platform] = selected[..] else {
        panic!("select exactly one platform feature (one of the files in src/platform, with '-' for '_'); got {selected:?}");
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let source = std::fs::canonicalize(dir.join(format!("{platform}.rs"))).expect("platform file");
    std::fs::write(
        out.join("platform.rs"),
        format!(
            "#[path = {:?}]\nmod selected;\npub use selected::Current;\n",
            source.display().to_string()
        ),
    )
    .expect("write platform.rs");
    // Only Earl Grey has OTBN; the other platforms build without its tools.
    if platform.starts_with("earlgrey") {
        otbn::generate(&out);
        // A board image starts flash with the boot ROM's flash header (platform/earlgrey.rs).
        layout::generate(&out, std::env::var_os("CARGO_FEATURE_BOARD_NEXYSVIDEO").is_some());
    } else {
        otbn::generate_none(&out);
        layout::generate_ram(&out);
    }
    println!("cargo:rerun-if-changed=build");
    let script = linker_script(dir, platform);
    std::fs::copy(&script, out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed={}", dir.display());
    println!("cargo:rerun-if-changed={}", script.display());
    println!("cargo:rerun-if-changed=build.rs");
}

/// `<name>/memory.x`, else that of the longest `_`-separated prefix that has one.
fn linker_script(dir: &Path, platform: &str) -> PathBuf {
    let mut name = platform;
    loop {
        let script = dir.join(name).join("memory.x");
        if script.exists() {
            return script;
        }
        match name.rsplit_once('_') {
            Some((family, _)) => name = family,
            None => panic!("no linker script for platform {platform}: add src/platform/{platform}/memory.x"),
        }
    }
}
