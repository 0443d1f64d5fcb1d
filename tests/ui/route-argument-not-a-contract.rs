use serde::Deserialize;
use stitch::mcp::Tools;

// A router method's argument must be a contract too, not merely Deserialize.
#[derive(Deserialize)]
struct GetBroadcast {
    broadcast_id: String,
}

struct Server;

impl Server {
    async fn get(&self, get: GetBroadcast) -> Result<String, String> {
        Ok(get.broadcast_id)
    }
}

fn main() {
    let _ = Tools::<Server>::new().tool(Server::get).build();
}
