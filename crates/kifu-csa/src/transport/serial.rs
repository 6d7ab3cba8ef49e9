//! An RS-232C line, by default as the protocol fixes it: 1200 bit/s, 8 data bits, no
//! parity, 1 stop bit, XON/XOFF flow control.

use std::io::{self, Read, Write};
use std::time::Duration;

use serialport::{DataBits, FlowControl, Parity, SerialPort, StopBits};

use super::Transport;

/// A serial line's device and settings (`serial:DEVICE[,baud=…,data=…,parity=…,stop=…,flow=…]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SerialSettings {
    /// The device (`/dev/ttyUSB0`, `COM3`).
    pub path: String,
    /// Bits per second (1200 in the CSA 1998 communication protocol).
    pub baud: u32,
    /// Data bits (8).
    pub data_bits: DataBits,
    /// Parity (none).
    pub parity: Parity,
    /// Stop bits (1).
    pub stop_bits: StopBits,
    /// Flow control (XON/XOFF).
    pub flow: FlowControl,
}

/// Why a serial line's settings were not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SerialSettingsError {
    /// No device named.
    #[error("serial: name a device")]
    NoDevice,
    /// A setting that is not `KEY=VALUE`.
    #[error("serial setting `{0}` is not KEY=VALUE")]
    NotKeyValue(String),
    /// A value the setting does not take.
    #[error("serial setting {key}={value} is not understood")]
    BadValue {
        /// The setting.
        key: String,
        /// The value given.
        value: String,
    },
    /// An unknown setting.
    #[error("unknown serial setting `{0}`")]
    UnknownKey(String),
}

impl SerialSettings {
    /// The protocol's settings on `path`.
    pub fn new(path: &str) -> SerialSettings {
        SerialSettings {
            path: path.to_owned(),
            baud: 1200,
            data_bits: DataBits::Eight,
            parity: Parity::None,
            stop_bits: StopBits::One,
            flow: FlowControl::Software,
        }
    }

    /// `DEVICE[,baud=N][,data=5|6|7|8][,parity=none|odd|even][,stop=1|2][,flow=xonxoff|rtscts|none]`
    pub fn parse(text: &str) -> Result<SerialSettings, SerialSettingsError> {
        let mut parts = text.split(',');
        let path = parts
            .next()
            .filter(|p| !p.is_empty())
            .ok_or(SerialSettingsError::NoDevice)?;
        let mut s = SerialSettings::new(path);
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SerialSettingsError::NotKeyValue(part.to_owned()))?;
            let bad = || SerialSettingsError::BadValue {
                key: key.to_owned(),
                value: value.to_owned(),
            };
            match key {
                "baud" => s.baud = value.parse().map_err(|_| bad())?,
                "data" => {
                    s.data_bits = match value {
                        "5" => DataBits::Five,
                        "6" => DataBits::Six,
                        "7" => DataBits::Seven,
                        "8" => DataBits::Eight,
                        _ => return Err(bad()),
                    }
                }
                "parity" => {
                    s.parity = match value {
                        "none" => Parity::None,
                        "odd" => Parity::Odd,
                        "even" => Parity::Even,
                        _ => return Err(bad()),
                    }
                }
                "stop" => {
                    s.stop_bits = match value {
                        "1" => StopBits::One,
                        "2" => StopBits::Two,
                        _ => return Err(bad()),
                    }
                }
                "flow" => {
                    s.flow = match value {
                        "xonxoff" | "software" => FlowControl::Software,
                        "rtscts" | "hardware" => FlowControl::Hardware,
                        "none" => FlowControl::None,
                        _ => return Err(bad()),
                    }
                }
                _ => return Err(SerialSettingsError::UnknownKey(key.to_owned())),
            }
        }
        Ok(s)
    }
}

/// An open serial line.
pub struct SerialTransport {
    port: Box<dyn SerialPort>,
    settings: SerialSettings,
}

impl SerialTransport {
    /// Opens the device with `settings`.
    pub fn open(settings: &SerialSettings) -> io::Result<SerialTransport> {
        let port = serialport::new(&settings.path, settings.baud)
            .data_bits(settings.data_bits)
            .parity(settings.parity)
            .stop_bits(settings.stop_bits)
            .flow_control(settings.flow)
            // Reads wake up now and then; the reader just tries again.
            .timeout(Duration::from_millis(500))
            .open()
            .map_err(|e| io::Error::other(format!("{}: {e}", settings.path)))?;
        Ok(SerialTransport {
            port,
            settings: settings.clone(),
        })
    }
}

impl Transport for SerialTransport {
    fn describe(&self) -> String {
        let s = &self.settings;
        format!(
            "serial {} {} bit/s {}{}{} flow {}",
            s.path,
            s.baud,
            u8::from(s.data_bits),
            match s.parity {
                Parity::None => "N",
                Parity::Odd => "O",
                Parity::Even => "E",
            },
            u8::from(s.stop_bits),
            match s.flow {
                FlowControl::None => "none",
                FlowControl::Software => "XON/XOFF",
                FlowControl::Hardware => "RTS/CTS",
            }
        )
    }

    fn split(self: Box<Self>) -> io::Result<(Box<dyn Read + Send>, Box<dyn Write + Send>)> {
        let read = self.port.try_clone().map_err(io::Error::other)?;
        Ok((Box::new(read), Box::new(self.port)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_default_to_the_protocol_and_can_be_changed() {
        let s = SerialSettings::parse("/dev/ttyS0").unwrap();
        assert_eq!((s.baud, s.flow), (1200, FlowControl::Software));
        let s = SerialSettings::parse("/dev/ttyS0,baud=9600,parity=even,stop=2,data=7,flow=none")
            .unwrap();
        assert_eq!(s.baud, 9600);
        assert_eq!(s.parity, Parity::Even);
        assert_eq!(s.stop_bits, StopBits::Two);
        assert_eq!(s.data_bits, DataBits::Seven);
        assert_eq!(s.flow, FlowControl::None);
        assert!(SerialSettings::parse("/dev/ttyS0,baud=fast").is_err());
        assert!(SerialSettings::parse("/dev/ttyS0,speed=1").is_err());
        assert!(SerialSettings::parse("").is_err());
    }

    /// A real pseudo-terminal opened as the serial line: the termios settings read back
    /// from the device are the protocol's, and lines cross in both directions.
    #[test]
    fn a_pseudo_terminal_as_the_line() {
        use std::io::{Read, Write};
        let (mut master, slave) = serialport::TTYPort::pair().expect("a pty pair");
        let name = slave.name().expect("the slave's name");
        let transport = SerialTransport::open(&SerialSettings::new(&name)).unwrap();
        assert_eq!(
            transport.port.flow_control().unwrap(),
            FlowControl::Software
        );
        assert_eq!(transport.port.data_bits().unwrap(), DataBits::Eight);
        assert_eq!(transport.port.parity().unwrap(), Parity::None);
        assert_eq!(transport.port.stop_bits().unwrap(), StopBits::One);
        assert_eq!(transport.port.baud_rate().unwrap(), 1200);
        assert!(
            transport
                .describe()
                .contains("1200 bit/s 8N1 flow XON/XOFF")
        );
        let (read, mut write) = Box::new(transport).split().unwrap();
        write.write_all(b"+7776FU\n").unwrap();
        write.flush().unwrap();
        let mut got = [0u8; 8];
        master.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"+7776FU\n");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || crate::transport::pump_lines(read, tx));
        master.write_all(b"-3334FU\r\n").unwrap();
        let event = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(
            event,
            crate::session::Event::Received(crate::lines::Line::Text(b"-3334FU".to_vec()))
        );
        drop(slave);
    }
}
