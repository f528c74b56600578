fn main() {
    std::process::exit(mjai_sim::cli::run());
}
