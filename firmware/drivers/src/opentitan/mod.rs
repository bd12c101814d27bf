//! OpenTitan drivers, one module per chip revision. A revision's drivers read only its own
//! generated register maps (`<revision>/regs/`), so a revision with other maps is a copy of
//! the folder regenerated from its snapshot, and no existing driver changes.

pub mod earlgrey_2021_03;
