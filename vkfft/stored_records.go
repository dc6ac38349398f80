package vkfft

// Measured records kept beside the kernels (tunings, spectrometer group sums): each is
// an entry of the kernel cache's format (header, key, checksum; see kcache.go) whose
// payload is a short text of "field=value" lines, decoded strictly and range-checked; an
// entry that is damaged, foreign or out of range is counted as rejected and ignored,
// never used. The process also remembers what it measured or read, so a disabled disk
// cache does not mean measuring twice.

import (
	"fmt"
	"sync"
)

// storedRecords is one kind of such record: its codec and this process's memory of them.
type storedRecords[T any] struct {
	encode func(T) []byte
	decode func([]byte) (T, error)

	mu   sync.Mutex
	memo map[string]T
}

func (s *storedRecords[T]) remembered(key []byte) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.memo[string(key)]
	return v, ok
}

func (s *storedRecords[T]) remember(key []byte, v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.memo == nil {
		s.memo = make(map[string]T)
	}
	s.memo[string(key)] = v
}

// forget drops the process's memory of these records (tests: a "new process").
func (s *storedRecords[T]) forget() {
	s.mu.Lock()
	s.memo = nil
	s.mu.Unlock()
}

// lookup returns the record stored under key: from this process's memory, else from the
// kernel-cache directory (verified like a kernel entry, then decoded).
func (s *storedRecords[T]) lookup(store kernelStore, key []byte) (T, bool) {
	if v, ok := s.remembered(key); ok {
		return v, true
	}
	var zero T
	payload, path := store.load(key)
	if payload == nil {
		return zero, false
	}
	v, err := s.decode(payload)
	if err != nil {
		kcacheProblem(&kcacheStats.plans.rejected, fmt.Errorf("%s: %w: %v", path, errBadEntry, err))
		return zero, false
	}
	s.remember(key, v)
	return v, true
}

// save remembers v and writes it to the kernel-cache directory (failures only counted,
// as for kernels).
func (s *storedRecords[T]) save(store kernelStore, key []byte, v T) {
	s.remember(key, v)
	store.save(key, s.encode(v))
}
