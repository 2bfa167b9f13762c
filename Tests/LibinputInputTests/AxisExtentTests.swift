import InputDevices
import Testing

/// A device declares its axes' ranges; a broken or hostile one may declare any Int32s.
@Suite struct AxisExtentTests {
    @Test func theWidestRangeADeviceCanDeclareIsSizedWithoutOverflow() {
        #expect(axisExtent(minimum: -1, maximum: Int32.max) == 2_147_483_648)
        #expect(axisExtent(minimum: Int32.min, maximum: Int32.max) == 4_294_967_295)
    }

    @Test func anAxisThatSpansNothingOrRunsBackwardsHasNoExtent() {
        #expect(axisExtent(minimum: 5, maximum: 5) == nil)
        #expect(axisExtent(minimum: Int32.max, maximum: Int32.min) == nil)
    }

    @Test func anOrdinaryAxis() {
        #expect(axisExtent(minimum: 0, maximum: 1200) == 1200)
    }
}
