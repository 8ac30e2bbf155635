//! The pacing authority for one bucket (`net::DurablePacer` asks it for slots): a
//! [`MemoryPacer`] inside a Durable Object, one object per bucket.

use entrez_mcp_core::net::pacing::{MemoryPacer, COLD_SEND_ROOM_MS};
use worker::{
    durable_object, Date, DurableObject, Env, Request, Response, Result as WorkerResult, State,
};

/// The pacing authority for one bucket: a [`MemoryPacer`] inside a Durable Object.
#[durable_object]
pub struct EntrezPacer {
    pacer: MemoryPacer,
}

impl DurableObject for EntrezPacer {
    fn new(_state: State, _env: Env) -> Self {
        // The next free slot is all there is; an evicted object forgets only slots that an
        // idle bucket (the only one evicted) has long passed.
        EntrezPacer {
            pacer: MemoryPacer::new(),
        }
    }

    async fn fetch(&self, req: Request) -> WorkerResult<Response> {
        let url = req.url()?;
        let limit = url
            .query_pairs()
            .find(|(k, _)| k == "limit")
            .and_then(|(_, v)| v.parse::<u32>().ok())
            .unwrap_or(3);
        let room = url
            .query_pairs()
            .find(|(k, _)| k == "room")
            .and_then(|(_, v)| v.parse::<u64>().ok())
            .unwrap_or(0)
            .min(COLD_SEND_ROOM_MS);
        // One object per bucket: the bucket name is this object's own name.
        match self
            .pacer
            .reserve_now("bucket", limit, Date::now().as_millis(), room)
        {
            Ok(grant) => Response::from_json(
                &entrez_mcp_core::json!({ "at_ms": grant.at_ms, "latest_ms": grant.latest_ms }),
            ),
            Err(e) => Ok(
                Response::from_json(&entrez_mcp_core::json!({ "message": e.message }))?
                    .with_status(429),
            ),
        }
    }
}
