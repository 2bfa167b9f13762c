/// The contact reader's tunables, each with its unit and why it has this value.
public enum ContactDefaults {
    /// Raw `ABS_MT_PRESSURE` at or above which a contact is a palm or a flat thumb, on pads
    /// that report pressure: libinput's own default palm pressure threshold (its
    /// `AttrPalmPressureThreshold` quirk overrides it per pad; touchgest reads no quirks).
    public static let palmPressure: Int32 = 130
    /// Millimetres of `ABS_MT_TOUCH_MAJOR` at or above which a contact is a palm or a flat
    /// thumb, on pads that report touch size with a resolution: a fingertip touches 8-12 mm,
    /// a thumb laid flat about 20, a palm more.
    public static let palmSize = 25.0
    /// The first id of a contact touch: far above the adapter's touchscreen touch ids (one
    /// a touch from 1; a billion touches is years of constant use), so the two never meet
    /// in one environment.
    public static let firstTouchID = 1_000_000_000
}
