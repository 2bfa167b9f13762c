import Testing

/// `--device-size NAME-GLOB=WIDTHxHEIGHT`: bad values are refused before any device is opened.
struct DeviceSizeOptionTests {
    @Test(arguments: [
        ("Panel", "invalid device size 'Panel': no '='"),
        ("=200x100", "invalid device size '=200x100': no device name before '='"),
        ("Panel=200", "invalid device size 'Panel=200': '200' is not WIDTHxHEIGHT"),
        ("Panel=200x0", "invalid device size 'Panel=200x0': width 200.0 and height 0.0 must both be above 0 mm"),
    ])
    func aBadSizeIsRefusedNamingTheValueAndTheForm(value: String, message: String) {
        let result = touchgest("list-devices --device /dev/null --device-size '\(value)'")
        #expect(result.status == 64)
        #expect(result.stderr.contains("\(message); expected NAME-GLOB=WIDTHxHEIGHT in millimetres, e.g. 'ILITEK*=197x115'"),
                "\(result.stderr)")
    }
}
