//! A plain HTTP/1.1 client for the spectators' side, on a real socket: GET with the whole
//! answer, and an event-stream reader (Server-Sent Events over chunked transfer encoding).

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// An answer: status, headers (names in lower case) and body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

async fn request(addr: SocketAddr, path: &str, extra: &str) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n");
    stream.write_all(req.as_bytes()).await.unwrap();
    BufReader::new(stream)
}

async fn head(reader: &mut BufReader<TcpStream>) -> (u16, Vec<(String, String)>) {
    let mut line = String::new();
    reader.read_line(&mut line).await.unwrap();
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {line:?}"));
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).await.unwrap();
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((n, v)) = l.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    (status, headers)
}

fn chunked(headers: &[(String, String)]) -> bool {
    headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"))
}

/// One chunk of a chunked body (`None` at its end).
async fn chunk(reader: &mut BufReader<TcpStream>) -> Option<Vec<u8>> {
    let mut line = String::new();
    if reader.read_line(&mut line).await.ok()? == 0 {
        return None;
    }
    let size = usize::from_str_radix(line.trim().split(';').next()?, 16).ok()?;
    if size == 0 {
        return None;
    }
    let mut data = vec![0; size + 2];
    reader.read_exact(&mut data).await.ok()?;
    data.truncate(size);
    Some(data)
}

/// `GET path`, the whole answer.
pub async fn get(addr: SocketAddr, path: &str) -> Answer {
    get_with(addr, path, "").await
}

/// `GET path` with extra header lines (each ending in `\r\n`).
pub async fn get_with(addr: SocketAddr, path: &str, extra: &str) -> Answer {
    let mut reader = request(addr, path, extra).await;
    let (status, headers) = head(&mut reader).await;
    let mut body = Vec::new();
    if chunked(&headers) {
        while let Some(c) = chunk(&mut reader).await {
            body.extend(c);
        }
    } else {
        reader.read_to_end(&mut body).await.unwrap();
    }
    Answer {
        status,
        headers,
        body: String::from_utf8(body).unwrap(),
    }
}

/// An open event stream.
pub struct Events {
    reader: BufReader<TcpStream>,
    pending: String,
    pub status: u16,
    pub body: String,
}

/// One event: its name and data.
#[derive(Debug)]
pub struct Event {
    pub name: String,
    pub data: String,
}

impl Event {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.data)
            .unwrap_or_else(|e| panic!("event {} not JSON ({e}): {}", self.name, self.data))
    }
}

/// Opens `path` as an event stream (a refusal's body is read whole).
pub async fn events(addr: SocketAddr, path: &str) -> Events {
    let mut reader = request(addr, path, "Accept: text/event-stream\r\n").await;
    let (status, headers) = head(&mut reader).await;
    let mut body = String::new();
    if status != 200 {
        let mut b = Vec::new();
        if chunked(&headers) {
            while let Some(c) = chunk(&mut reader).await {
                b.extend(c);
            }
        } else {
            reader.read_to_end(&mut b).await.unwrap();
        }
        body = String::from_utf8(b).unwrap();
    } else {
        assert!(chunked(&headers), "an event stream is chunked: {headers:?}");
    }
    Events {
        reader,
        pending: String::new(),
        status,
        body,
    }
}

impl Events {
    /// The next event (keep-alive comments skipped); `None` once the stream has ended.
    pub async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                let mut name = "message".to_owned();
                let mut data = Vec::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_owned();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push(v.strip_prefix(' ').unwrap_or(v).to_owned());
                    }
                }
                if data.is_empty() && name == "message" {
                    continue;
                }
                return Some(Event {
                    name,
                    data: data.join("\n"),
                });
            }
            let c = tokio::time::timeout(Duration::from_secs(10), chunk(&mut self.reader))
                .await
                .expect("an event within 10 s")?;
            self.pending.push_str(&String::from_utf8(c).unwrap());
        }
    }

    /// The next event, which must be named `name`.
    pub async fn expect(&mut self, name: &str) -> serde_json::Value {
        let e = self
            .next()
            .await
            .unwrap_or_else(|| panic!("stream ended before `{name}`"));
        assert_eq!(e.name, name, "{e:?}");
        e.json()
    }
}
