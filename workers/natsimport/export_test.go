package natsimport

// CompareVersions is compareVersions, for the tests.
var CompareVersions = compareVersions
