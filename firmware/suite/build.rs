//! Puts the selected platform's `memory.x` on the linker search path.

use std::path::PathBuf;

const PLATFORMS: [&str; 3] = ["qemu_virt", "ibex_sim", "earlgrey"];

fn main() {
    let selected: Vec<&str> = PLATFORMS
        .iter()
        .copied()
        .filter(|p| std::env::var_os(format!("CARGO_FEATURE_{}", p.to_uppercase())).is_some())
        .collect();
    let [platform] = selected[..] else {
        panic!("select exactly one platform feature (one of {PLATFORMS:?}, with '-' for '_'); got {selected:?}");
    };
    let source = PathBuf::from("src/platform").join(platform).join("memory.x");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::copy(&source, out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed={}", source.display());
    println!("cargo:rerun-if-changed=build.rs");
}
