//! `kifu render --animate`: the GIF is decoded (with the `gif` crate; an animated PNG with
//! the `png` crate) and each frame is
//! compared with `kifu render --ply N --caption` of the same ply, for the three games.

use std::path::Path;
use std::process::{Command, Output};

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .expect("kifu runs")
}

fn ok(args: &[&str]) -> Output {
    let out = kifu(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn corpus(rel: &str) -> String {
    kifu_testkit::corpus::path(rel)
        .to_str()
        .unwrap()
        .to_string()
}

/// An RGB picture.
#[derive(Clone)]
struct Picture {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

/// Every frame of a GIF as shown: each frame drawn over the one before (the frames store only
/// what changed), and the delay of each, in hundredths of a second.
fn gif_frames(bytes: &[u8]) -> (Vec<Picture>, Vec<u16>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (width, height) = (decoder.width() as usize, decoder.height() as usize);
    let global = decoder.global_palette().expect("one palette").to_vec();
    let mut canvas = vec![0u8; width * height * 3];
    let mut frames = Vec::new();
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        let palette = frame.palette.as_deref().unwrap_or(&global);
        let (left, top) = (frame.left as usize, frame.top as usize);
        for y in 0..frame.height as usize {
            for x in 0..frame.width as usize {
                let index = frame.buffer[y * frame.width as usize + x];
                if Some(index) == frame.transparent {
                    continue;
                }
                let at = ((top + y) * width + left + x) * 3;
                let colour = &palette[index as usize * 3..index as usize * 3 + 3];
                canvas[at..at + 3].copy_from_slice(colour);
            }
        }
        frames.push(Picture {
            width,
            height,
            rgb: canvas.clone(),
        });
        delays.push(frame.delay);
    }
    (frames, delays)
}

/// Every frame of an animated PNG as shown (each later frame a rectangle written over the
/// one before), and the delay of each in hundredths of a second.
fn apng_frames(bytes: &[u8]) -> (Vec<Picture>, Vec<u16>) {
    let mut decoder = png::Decoder::new(bytes);
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let (width, height) = (reader.info().width as usize, reader.info().height as usize);
    let count = reader
        .info()
        .animation_control()
        .expect("an animated PNG")
        .num_frames;
    let mut canvas = vec![0u8; width * height * 3];
    let mut frames = Vec::new();
    let mut delays = Vec::new();
    for _ in 0..count {
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("a frame");
        let control = reader.info().frame_control().expect("a frame control");
        let channels = info.color_type.samples();
        let (left, top) = (control.x_offset as usize, control.y_offset as usize);
        let over = control.blend_op == png::BlendOp::Over;
        for y in 0..info.height as usize {
            for x in 0..info.width as usize {
                let from = (y * info.width as usize + x) * channels;
                let at = ((top + y) * width + left + x) * 3;
                let alpha = u32::from(if channels == 4 { buf[from + 3] } else { 255 });
                for c in 0..3 {
                    let (src, dst) = (u32::from(buf[from + c]), u32::from(canvas[at + c]));
                    canvas[at + c] = if over {
                        ((src * alpha + dst * (255 - alpha)) / 255) as u8
                    } else {
                        src as u8
                    };
                }
            }
        }
        frames.push(Picture {
            width,
            height,
            rgb: canvas.clone(),
        });
        let (num, den) = (
            u32::from(control.delay_num),
            u32::from(control.delay_den).max(1),
        );
        delays.push((num * 100 / den) as u16);
    }
    (frames, delays)
}

fn png_picture(path: &Path) -> Picture {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Picture {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    }
}

/// The mean difference of two pictures of one size, per colour channel (0–255).
fn difference(a: &Picture, b: &Picture) -> f64 {
    assert_eq!((a.width, a.height), (b.width, b.height), "one size");
    let total: u64 = a
        .rgb
        .iter()
        .zip(&b.rgb)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    total as f64 / a.rgb.len() as f64
}

/// Animates `input` (with `extra` arguments) from ply `from` to `to` and checks that frame k
/// is the still of ply `from + k`: nearer to it than to the stills of the plies beside it,
/// and differing from it by little more than the palette's rounding.
fn frames_are_the_stills(input: &str, extra: &[&str], from: usize, to: usize) {
    frames_of_kind_are_the_stills("gif", input, extra, from, to);
}

/// [`frames_are_the_stills`] for an animation of the kind `extension` names (`gif`, `apng`).
fn frames_of_kind_are_the_stills(
    extension: &str,
    input: &str,
    extra: &[&str],
    from: usize,
    to: usize,
) {
    let dir = tempfile::tempdir().unwrap();
    let gif_path = dir.path().join(format!("game.{extension}"));
    let (from_s, to_s) = (from.to_string(), to.to_string());
    let mut args = vec![
        "render",
        input,
        "--animate",
        "--from-ply",
        &from_s,
        "--to-ply",
        &to_s,
        "--delay",
        "500",
        "--last-delay",
        "3000",
        "-o",
        gif_path.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok(&args);
    let bytes = std::fs::read(&gif_path).unwrap();
    let (frames, delays) = if extension == "gif" {
        gif_frames(&bytes)
    } else {
        apng_frames(&bytes)
    };
    assert_eq!(frames.len(), to - from + 1, "one frame per ply");
    assert!(delays[..delays.len() - 1].iter().all(|&d| d == 50));
    assert_eq!(
        delays.last(),
        Some(&300),
        "a longer pause on the last frame"
    );

    // The stills of the plies shown and of the plies beside them (past the end of the line
    // there is none: `--ply` says so, exit 2).
    let stills: Vec<(usize, Picture)> = (from.saturating_sub(1)..=to + 1)
        .filter_map(|ply| {
            let png = dir.path().join(format!("{ply}.png"));
            let ply_s = ply.to_string();
            let mut args = vec![
                "render",
                input,
                "--ply",
                &ply_s,
                "--caption",
                "-o",
                png.to_str().unwrap(),
            ];
            args.extend_from_slice(extra);
            (kifu(&args).status.code() == Some(0)).then(|| (ply, png_picture(&png)))
        })
        .collect();
    let still = |ply: usize| stills.iter().find(|s| s.0 == ply).map(|s| &s.1);
    for (k, frame) in frames.iter().enumerate() {
        let ply = from + k;
        let d = difference(frame, still(ply).expect("a still of every ply shown"));
        assert!(d < 2.0, "ply {ply}: differs from its still by {d}");
        for other in [ply.wrapping_sub(1), ply + 1] {
            if let Some(other_still) = still(other) {
                let d_other = difference(frame, other_still);
                assert!(
                    d < d_other,
                    "ply {ply}: nearer the still of ply {other} ({d} ≥ {d_other})"
                );
            }
        }
    }
}

#[test]
fn a_shogi_animation_has_a_frame_per_ply_matching_its_still() {
    frames_are_the_stills(
        &corpus("shogi/jkf-suite/kif/kiou201403160101.kif"),
        &[],
        20,
        32,
    );
}

#[test]
fn a_flipped_animation_matches_the_flipped_stills() {
    frames_are_the_stills(&corpus("shogi/csa-versions/v2_2.csa"), &["--flip"], 0, 2);
}

#[test]
fn a_chu_animation_has_a_frame_per_ply_matching_its_still() {
    let dir = tempfile::tempdir().unwrap();
    let games = std::fs::read_to_string(corpus("chu/lishogi-games.ndjson")).unwrap();
    let game = dir.path().join("game.json");
    std::fs::write(&game, games.lines().next().unwrap()).unwrap();
    frames_are_the_stills(
        game.to_str().unwrap(),
        &["--game", "chu", "--format", "json"],
        0,
        8,
    );
}

#[test]
fn a_cetkaik_animation_has_a_frame_per_ply_matching_its_still() {
    frames_are_the_stills(
        &corpus("cetkaik/cerke_online/case1_2022-05-31.ckka"),
        &[],
        0,
        8,
    );
}

#[test]
fn an_animated_png_of_each_game_has_a_frame_per_ply_matching_its_still() {
    frames_of_kind_are_the_stills(
        "apng",
        &corpus("shogi/jkf-suite/kif/kiou201403160101.kif"),
        &["--flip"],
        20,
        26,
    );
    let dir = tempfile::tempdir().unwrap();
    let games = std::fs::read_to_string(corpus("chu/lishogi-games.ndjson")).unwrap();
    let game = dir.path().join("game.json");
    std::fs::write(&game, games.lines().next().unwrap()).unwrap();
    frames_of_kind_are_the_stills(
        "apng",
        game.to_str().unwrap(),
        &["--game", "chu", "--format", "json"],
        14,
        20,
    );
    frames_of_kind_are_the_stills(
        "apng",
        &corpus("cetkaik/cerke_online/case1_2022-05-31.ckka"),
        &[],
        0,
        6,
    );
}

#[test]
fn a_whole_game_is_one_frame_per_position_and_small() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus("shogi/jkf-suite/kif/kiou201403160101.kif");
    let gif_path = dir.path().join("game.gif");
    ok(&[
        "render",
        &input,
        "--animate",
        "-o",
        gif_path.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&gif_path).unwrap();
    let (frames, delays) = gif_frames(&bytes);
    // `--ply` past the end says how many moves the main line has.
    let refused = kifu(&["render", &input, "--ply", "9999", "-o", "-"]);
    let said = String::from_utf8_lossy(&refused.stderr).into_owned();
    let plies: usize = said
        .split("the main line has ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(plies > 50, "{plies}");
    assert_eq!(frames.len(), plies + 1, "the start and each move");
    assert_eq!(delays[0], 100, "one second a move by default");
    assert!(
        bytes.len() < 10_000 * frames.len(),
        "{} bytes for {} frames",
        bytes.len(),
        frames.len()
    );
}

#[test]
fn an_animation_refuses_what_it_cannot_do() {
    let input = corpus("shogi/csa-versions/v2_2.csa");
    for (args, says) in [
        (
            vec!["render", &input, "--animate", "-o", "game.svg"],
            ".gif",
        ),
        (
            vec![
                "render",
                &input,
                "--animate",
                "--ply",
                "3",
                "-o",
                "game.gif",
            ],
            "--ply",
        ),
        (
            vec!["render", &input, "--from-ply", "3", "-o", "game.gif"],
            "--animate",
        ),
        (
            vec![
                "render",
                &input,
                "--animate",
                "--from-ply",
                "2",
                "--to-ply",
                "1",
                "-o",
                "game.gif",
            ],
            "comes after",
        ),
        (
            vec![
                "render",
                &input,
                "--animate",
                "--to-ply",
                "999",
                "-o",
                "game.gif",
            ],
            "--to-ply 999",
        ),
    ] {
        let out = kifu(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// The files in `dir`, by name.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn batch_stills_are_one_per_ply_or_per_record_named_predictably() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir_all(games.join("season")).unwrap();
    std::fs::copy(
        corpus("shogi/csa-versions/v2_2.csa"),
        games.join("short.csa"),
    )
    .unwrap();
    std::fs::copy(
        corpus("cetkaik/cerke_online/case1_2022-05-31.ckka"),
        games.join("season/match.ckka"),
    )
    .unwrap();
    let games_s = games.to_str().unwrap();

    // Every ply: the 2-move shogi record gives three pictures; the cetkaik match, one record
    // as every command counts it (issue 27), one per position of its 59 moves, numbered by
    // ply as `--ply` counts them across its seasons.
    let all = dir.path().join("all");
    let all_s = format!("{}/", all.display());
    ok(&["render", games_s, "--ply", "all", "-o", &all_s]);
    let names = names_in(&all);
    assert!(names.contains(&"short-000.png".to_string()), "{names:?}");
    assert!(names.contains(&"short-002.png".to_string()), "{names:?}");
    assert!(!names.contains(&"short-003.png".to_string()), "{names:?}");
    assert!(
        names.contains(&"season_match-000.png".to_string())
            && names.contains(&"season_match-059.png".to_string())
            && !names.contains(&"season_match-060.png".to_string()),
        "{names:?}"
    );
    assert!(names.iter().all(|n| n.ends_with(".png")));
    // The same picture as `kifu render --ply 1` of the one file.
    let still = dir.path().join("still.png");
    ok(&[
        "render",
        games.join("short.csa").to_str().unwrap(),
        "--ply",
        "1",
        "-o",
        still.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(all.join("short-001.png")).unwrap(),
        std::fs::read(&still).unwrap()
    );

    // One ply: a picture per record, as SVG with a caption.
    let one = dir.path().join("one");
    let one_s = format!("{}/", one.display());
    ok(&[
        "render",
        games_s,
        "--ply",
        "1",
        "--svg",
        "--caption",
        "-o",
        &one_s,
    ]);
    assert_eq!(names_in(&one), ["season_match.svg", "short.svg"]);
    let svg = std::fs::read_to_string(one.join("short.svg")).unwrap();
    assert!(svg.starts_with("<svg"));
    // Several pictures need a directory; --record picks from one file only.
    let out = kifu(&["render", games_s, "-o", "-"]);
    assert_eq!(out.status.code(), Some(2));
    let out = kifu(&["render", games_s, "--record", "1", "-o", &one_s]);
    assert_eq!(out.status.code(), Some(2));
}
