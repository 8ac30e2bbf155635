//! The byte-level XML tokenizer under every parser: it must end, on any input.
#![no_main]
use entrez_mcp_parse::tokenizer::Tokenizer;
use libfuzzer_sys::fuzz_target;
use quick_xml::events::Event;

fuzz_target!(|data: &[u8]| {
    let mut t = Tokenizer::new(data);
    // Each event consumes input, so more events than bytes (plus the closing ones) is a hang.
    for _ in 0..data.len() * 2 + 64 {
        match t.next_event() {
            Ok(Event::Eof) | Err(_) => return,
            Ok(_) => {}
        }
    }
    panic!(
        "the tokenizer did not reach the end of {} bytes",
        data.len()
    );
});
