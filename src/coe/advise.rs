//! `signalbox coe advise` (in progress).

/// Arguments of `coe advise`.
#[derive(clap::Args, Debug)]
pub struct AdviseArgs {}

/// Runs `coe advise`.
pub fn run(_a: AdviseArgs) -> anyhow::Result<()> {
    anyhow::bail!("not yet")
}
