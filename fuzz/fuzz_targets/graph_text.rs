#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| influence_fuzz::check_graph_text(data));
