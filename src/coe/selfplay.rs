//! `signalbox coe selfplay` (in progress).

/// Arguments of `coe selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {}

/// Runs `coe selfplay`.
pub fn run(_a: SelfplayArgs) -> anyhow::Result<()> {
    anyhow::bail!("not yet")
}
