//! Splits the suite's ELF into one ELF per simulated memory, or one memory's flat image.
//!
//! The Verilator models load an ELF into one memory by flattening all its loadable segments
//! from the lowest address and writing the result at the memory's offset 0. The suite's ELF
//! has segments in ROM, flash and (empty) RAM, so each memory gets its own ELF holding a
//! single segment that starts exactly at the memory's base. A board's loader takes the flash
//! contents as a flat binary instead ([`flatten`]).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use object::elf;
use object::read::elf::{ElfFile32, FileHeader, ProgramHeader};
use object::Endianness;

/// A memory of the simulated chip (or of a board).
#[derive(Debug)]
pub struct Memory {
    /// Name as the simulator knows it (`rom`, `flash`).
    pub name: &'static str,
    /// First address.
    pub base: u32,
    /// Size in bytes.
    pub size: u32,
}

impl Memory {
    fn contains(&self, address: u32, len: u32) -> bool {
        address >= self.base && u64::from(address) + u64::from(len) <= u64::from(self.base) + u64::from(self.size)
    }
}

/// Writes `<out_dir>/<stem>.<memory>.elf` for every memory that receives data, and returns
/// (memory name, path) pairs. Loadable data outside every memory is an error.
pub fn split(elf_path: &Path, memories: &[Memory], out_dir: &Path) -> Result<Vec<(&'static str, PathBuf)>> {
    let (images, entry) = flatten(elf_path, memories)?;
    let stem = elf_path
        .file_name()
        .map_or_else(|| "image".into(), |n| n.to_string_lossy().into_owned());
    let mut written = Vec::new();
    for (memory, image) in memories.iter().zip(images) {
        if image.is_empty() {
            continue;
        }
        let path = out_dir.join(format!("{stem}.{}.elf", memory.name));
        std::fs::write(&path, single_segment_elf(memory.base, &image, entry)?)
            .with_context(|| format!("writing {}", path.display()))?;
        written.push((memory.name, path));
    }
    Ok(written)
}

/// The contents of every memory in `memories` as `objcopy -O binary` gives them: from the
/// memory's base to the end of the last data loaded into it, gaps zero-filled (empty for a
/// memory that receives nothing); and the ELF's entry point. Loadable data outside every
/// memory is an error.
pub fn flatten(elf_path: &Path, memories: &[Memory]) -> Result<(Vec<Vec<u8>>, u32)> {
    let data = std::fs::read(elf_path).with_context(|| format!("reading {}", elf_path.display()))?;
    let file = ElfFile32::<Endianness>::parse(&*data)
        .with_context(|| format!("{} is not a 32-bit ELF", elf_path.display()))?;
    let endian = file.endian();
    let mut images: Vec<Vec<u8>> = vec![Vec::new(); memories.len()];
    for ph in file.elf_program_headers() {
        if ph.p_type(endian) != elf::PT_LOAD || ph.p_filesz(endian) == 0 {
            continue;
        }
        let address = ph.p_paddr(endian);
        let bytes = ph
            .data(endian, &*data)
            .map_err(|_| anyhow::anyhow!("segment at {address:#x} lies outside the file"))?;
        let len = u32::try_from(bytes.len())?;
        let Some(index) = memories.iter().position(|m| m.contains(address, len)) else {
            if let Some(m) = memories.iter().find(|m| m.contains(address, 0)) {
                bail!(
                    "{}: loadable segment at {address:#x} ({len} bytes) runs {} bytes past the end of {} ({} KiB): the firmware does not fit",
                    elf_path.display(),
                    u64::from(address) + u64::from(len) - (u64::from(m.base) + u64::from(m.size)),
                    m.name,
                    m.size / 1024
                );
            }
            bail!(
                "{}: loadable segment at {address:#x} ({len} bytes) is in no simulated memory",
                elf_path.display()
            );
        };
        let image = &mut images[index];
        let start = (address - memories[index].base) as usize;
        if image.len() < start + bytes.len() {
            image.resize(start + bytes.len(), 0);
        }
        image[start..start + bytes.len()].copy_from_slice(bytes);
    }
    Ok((images, file.elf_header().e_entry(endian)))
}

/// A minimal RISC-V ELF32: file header, one PT_LOAD program header, the data.
fn single_segment_elf(address: u32, data: &[u8], entry: u32) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut w = object::write::elf::Writer::new(Endianness::Little, false, &mut out);
    w.reserve_file_header();
    w.reserve_program_headers(1);
    let offset = w.reserve(data.len(), 4);
    w.write_file_header(&object::write::elf::FileHeader {
        os_abi: elf::ELFOSABI_NONE,
        abi_version: 0,
        e_type: elf::ET_EXEC,
        e_machine: elf::EM_RISCV,
        e_entry: u64::from(entry),
        e_flags: 0,
    })
    .map_err(|e| anyhow::anyhow!("ELF header: {e}"))?;
    w.write_align_program_headers();
    w.write_program_header(&object::write::elf::ProgramHeader {
        p_type: elf::PT_LOAD,
        p_flags: elf::PF_R | elf::PF_X,
        p_offset: offset as u64,
        p_vaddr: u64::from(address),
        p_paddr: u64::from(address),
        p_filesz: data.len() as u64,
        p_memsz: data.len() as u64,
        p_align: 4,
    });
    w.write_align(4);
    w.write(data);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_segments_into_per_memory_images_starting_at_the_base() {
        let dir = tempfile::tempdir().unwrap();
        // Two segments: 4 bytes at ROM + 0x80, 8 bytes at flash base.
        let mut src = Vec::new();
        let mut w = object::write::elf::Writer::new(Endianness::Little, false, &mut src);
        w.reserve_file_header();
        w.reserve_program_headers(2);
        let rom_off = w.reserve(4, 4);
        let flash_off = w.reserve(8, 4);
        w.write_file_header(&object::write::elf::FileHeader {
            os_abi: 0,
            abi_version: 0,
            e_type: elf::ET_EXEC,
            e_machine: elf::EM_RISCV,
            e_entry: 0x2000_0000,
            e_flags: 0,
        })
        .unwrap();
        w.write_align_program_headers();
        for (off, addr, len) in [(rom_off, 0x8080u64, 4u64), (flash_off, 0x2000_0000, 8)] {
            w.write_program_header(&object::write::elf::ProgramHeader {
                p_type: elf::PT_LOAD,
                p_flags: elf::PF_R,
                p_offset: off as u64,
                p_vaddr: addr,
                p_paddr: addr,
                p_filesz: len,
                p_memsz: len,
                p_align: 4,
            });
        }
        w.write_align(4);
        w.write(&[1, 2, 3, 4]);
        w.write(&[5, 6, 7, 8, 9, 10, 11, 12]);
        let elf_path = dir.path().join("suite");
        std::fs::write(&elf_path, &src).unwrap();

        let memories = [
            Memory {
                name: "rom",
                base: 0x8000,
                size: 0x4000,
            },
            Memory {
                name: "flash",
                base: 0x2000_0000,
                size: 0x10_0000,
            },
        ];
        let out = split(&elf_path, &memories, dir.path()).unwrap();
        assert_eq!(out.len(), 2);
        let rom = std::fs::read(&out[0].1).unwrap();
        let parsed = ElfFile32::<Endianness>::parse(&*rom).unwrap();
        let ph = parsed.elf_program_headers();
        assert_eq!(ph.len(), 1);
        assert_eq!(ph[0].p_paddr(Endianness::Little), 0x8000);
        let data = ph[0].data(Endianness::Little, &*rom).unwrap();
        assert_eq!(data.len(), 0x84);
        assert_eq!(&data[0x80..], &[1, 2, 3, 4]);
        assert!(data[..0x80].iter().all(|&b| b == 0));

        // A board's loader takes the flash as a flat binary from its base.
        let (flat, entry) = flatten(&elf_path, &memories).unwrap();
        assert_eq!(flat[1], [5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(entry, 0x2000_0000);

        let too_small = [Memory {
            name: "rom",
            base: 0x8000,
            size: 0x82,
        }];
        let error = split(&elf_path, &too_small, dir.path()).unwrap_err().to_string();
        assert!(error.contains("runs 2 bytes past the end of rom"), "{error}");
    }
}
