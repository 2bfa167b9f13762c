import Glibc
import TouchGestures

/// Writes `text` and a newline to standard error.
func warn(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// One drawing of the $1 gesture logs (Wobbrock, Wilson and Li, UIST 2007): a file
/// `SUBJECT/SPEED/SHAPENN.xml` holding `<Gesture Name="arrow01" Subject=... Speed=...
/// Number=... NumPts=...>` and one `<Point X= Y= T=/>` per sample, X and Y in pixels of a
/// Pocket PC's screen, T in milliseconds.
struct GestureLog {
    /// The shape, from the name without its number: `arrow`, `left_curly_brace`.
    var shape: String
    /// The folder's subject (`s02`); the files of s07 say Subject="6", so the folder is trusted.
    var subject: String
    /// `slow`, `medium` or `fast`.
    var speed: String
    /// 1 to 10.
    var number: Int
    /// Pixels and milliseconds from the first point.
    var points: [(x: Double, y: Double, t: Double)]

    /// Every drawing under `folder` (its subfolders `SUBJECT/SPEED/`), sorted; subjects whose
    /// folder name contains "pilot" only with `pilot`.
    static func load(_ folder: String, pilot: Bool) -> [GestureLog] {
        var logs: [GestureLog] = []
        for subject in entries(folder).sorted() where pilot || !subject.contains("pilot") {
            for speed in entries(folder + "/" + subject).sorted() {
                for file in entries(folder + "/" + subject + "/" + speed).sorted() where file.hasSuffix(".xml") {
                    let path = folder + "/" + subject + "/" + speed + "/" + file
                    guard let text = read(path), let log = parse(text, subject: subject, speed: speed) else {
                        warn("stroke-study: \(path): not a gesture log; skipped")
                        continue
                    }
                    logs.append(log)
                }
            }
        }
        return logs
    }

    /// The attribute `name` of the element text `element`.
    private static func attribute(_ name: String, in element: Substring) -> Substring? {
        guard let start = element.firstRange(of: " \(name)=\"") else { return nil }
        let rest = element[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return rest[..<end]
    }

    static func parse(_ text: String, subject: String, speed: String) -> GestureLog? {
        guard let open = text.firstRange(of: "<Gesture ") else { return nil }
        let head = text[open.lowerBound...].prefix { $0 != ">" }
        guard let name = attribute("Name", in: head) else { return nil }
        let shape = String(name.reversed().drop { $0.isNumber }.reversed())
        let number = Int(name.reversed().prefix { $0.isNumber }.reversed().map(String.init).joined()) ?? 0
        var points: [(x: Double, y: Double, t: Double)] = []
        var rest = text[head.endIndex...]
        while let point = rest.firstRange(of: "<Point ") {
            let element = rest[point.lowerBound...].prefix { $0 != ">" }
            guard let x = attribute("X", in: element).flatMap({ Double($0) }),
                  let y = attribute("Y", in: element).flatMap({ Double($0) }),
                  let t = attribute("T", in: element).flatMap({ Double($0) }) else { return nil }
            points.append((x, y, t))
            rest = rest[element.endIndex...]
        }
        guard points.count >= 2, !shape.isEmpty else { return nil }
        let t0 = points[0].t
        return GestureLog(shape: shape, subject: subject, speed: String(attribute("Speed", in: head) ?? Substring(speed)),
                          number: number, points: points.map { ($0.x, $0.y, $0.t - t0) })
    }

    private static func entries(_ folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
