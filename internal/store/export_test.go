package store

// Internals that the external tests (package store_test) use to look inside the database
// file and to hold its lock as another process would.
var (
	BucketRecords = bucketRecords
	TryLock       = tryLock
)
