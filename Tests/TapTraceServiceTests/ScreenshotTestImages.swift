import Foundation

/// Images for the screenshot tests: PNGs built here (any size, decodable: stored deflate
/// blocks), and two JPEGs written by Pillow 13 (a baseline one, 39×84, and a progressive one,
/// 52×30, whose EXIF segment comes before its frame header).
enum TestImages {
    /// A PNG of `width`×`height` RGB pixels, every one the same colour. `IHDR`, one `IDAT` and
    /// `IEND`, each with its CRC, computed here independently of the service's own.
    static func png(width: Int, height: Int, rgb: (UInt8, UInt8, UInt8) = (51, 102, 204)) -> [UInt8] {
        var ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        ihdr += [8, 2, 0, 0, 0]  // 8-bit truecolour, deflate, adaptive filtering, no interlace
        var raw: [UInt8] = []
        for _ in 0..<height {
            raw.append(0)  // filter type None
            for _ in 0..<width { raw += [rgb.0, rgb.1, rgb.2] }
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", ihdr) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    static let jpegBaseline39x84: [UInt8] = decode([
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIfIiEmKzcvJik0KSEiMEExNDk7",
        "Pj4+JS5ESUM8SDc9Pjv/2wBDAQoLCw4NDhwQEBw7KCIoOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7",
        "Ozs7Ozs7Ozv/wAARCABUACcDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF",
        "BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW",
        "V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi",
        "4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC",
        "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVm",
        "Z2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq",
        "8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDHooor7A8QKKKKACiiigArZg8L31xbxzpLbhZEDgFmzgjPpWNXoemf8gq0/wCuCf8AoIr5",
        "biXNMRl1KnOg1dtrVX6Hp5dhqeInJT6HM/8ACI6h/wA9rb/vpv8ACoL3w7eWFo9zLJAyJjIVjnk49Peu3rM8R/8AIBuf+A/+hCvl",
        "8BxRmNfF0qU2rSlFPTo2kelXy3DwpSkk7pPqcLRRRX6ifNBXoemf8gq0/wCuCf8AoIrzytmDxRfW9vHAkVuVjQICVbOAMetfLcS5",
        "XiMxpU4UErpt6u3Q9PLsTTw85OfU7SszxH/yAbn/AID/AOhCsL/hLtQ/5423/fLf41Be+Iry/tHtpY4FR8ZKqc8HPr7V8vgOF8xo",
        "YulVmlaMot69E0z0q+ZYedKUU3dp9DJooor9RPmgooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigD/9k=",
    ])

    static let jpegProgressive52x30: [UInt8] = decode([
        "/9j/4AAQSkZJRgABAQAAAQABAAD/4QAwRXhpZgAATU0AKgAAAAgAAQEPAAIAAAAOAAAAGgAAAABUYXBUcmFjZSB0ZXN0AP/bAEMA",
        "CgcHCAcGCggICAsKCgsOGBAODQ0OHRUWERgjHyUkIh8iISYrNy8mKTQpISIwQTE0OTs+Pj4lLkRJQzxINz0+O//bAEMBCgsLDg0O",
        "HBAQHDsoIig7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7O//CABEIAB4ANAMBIgACEQED",
        "EQH/xAAYAAEBAQEBAAAAAAAAAAAAAAAABgQCA//EABYBAQEBAAAAAAAAAAAAAAAAAAAEBf/aAAwDAQACEAMQAAABx9c7tGTMoWBf",
        "PeVNM6cwacwAAAH/xAAcEAABAwUAAAAAAAAAAAAAAAAAAQMTAgQgM0D/2gAIAQEAAQUCERaiNwjcI3MLTbx//8QAHBEAAQMFAAAA",
        "AAAAAAAAAAAAAwABAhESFCBR/9oACAEDAQE/ARxukzLDj1HCw6bf/8QAHxEAAAYBBQAAAAAAAAAAAAAAAAECAwQREhMVIEFS/9oA",
        "CAECAQE/AZDuk0pZdDe3PIgTVSsrKq5f/8QAHRAAAQQCAwAAAAAAAAAAAAAAAAECMpERICFAcf/aAAgBAQAGPwI4TJB1EHUQdWi+",
        "dT//xAAbEAACAgMBAAAAAAAAAAAAAAAAARHxIEBh8P/aAAgBAQABPyEfQ5uKS6F0Lph6erU//9oADAMBAAIAAwAAABAUwgEEEEH/",
        "xAAbEQACAQUAAAAAAAAAAAAAAAABEQAgIUFhwf/aAAgBAwEBPxAJ3M3JYRbfKv/EABwRAAEEAwEAAAAAAAAAAAAAAAEAESFhIDGR",
        "0f/aAAgBAgEBPxAw05B1R6VGuDVv5l//xAAcEAACAgIDAAAAAAAAAAAAAAAAAcHwESBAgaH/2gAIAQEAAT8QGlfLLTmx0WaCzQWa",
        "NPX4h//Z",
    ])

    private static func decode(_ lines: [String]) -> [UInt8] {
        Array(Data(base64Encoded: lines.joined())!)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    static func bigEndian(_ n: UInt32) -> [UInt8] {
        [UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)]
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951, BTYPE 00).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    /// CRC-32 (ISO 3309) from a table, as the PNG specification's sample code computes it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.reduce(~UInt32(0)) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) } ^ ~UInt32(0)
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
}
