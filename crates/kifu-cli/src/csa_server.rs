use crate::Outcome;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<Outcome, String> {
    Err("kifu csa-server is not built yet".into())
}
