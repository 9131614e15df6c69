package storage

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
)

// Access is what a token allows.
type Access int

// The kinds of access a token grants.
const (
	ViewAccess Access = iota + 1
	EditAccess
)

func (a Access) String() string {
	switch a {
	case ViewAccess:
		return "view"
	case EditAccess:
		return "edit"
	}
	return fmt.Sprintf("Access(%d)", int(a))
}

func accessFromDB(s string) (Access, error) {
	switch s {
	case "view":
		return ViewAccess, nil
	case "edit":
		return EditAccess, nil
	}
	return 0, fmt.Errorf("stored token has unknown access %q", s)
}

// Tokens are the plaintext capability tokens of a design. They are only ever returned by Create;
// the database keeps their hashes.
type Tokens struct {
	Edit, View string
}

// tokenLen is the length of rand.Text: 26 base32 characters, 130 bits.
const tokenLen = 26

const tokenAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

// wellFormed reports whether s could be a token: rand.Text's length and alphabet.
func wellFormed(s string) bool {
	if len(s) != tokenLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || '2' <= c && c <= '7') {
			return false
		}
	}
	return true
}

func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// Resolve returns the design and the access a token grants. Unknown, malformed and revoked tokens
// all give ErrNotFound. The token itself never appears in an error.
func (s *Store) Resolve(ctx context.Context, token string) (string, Access, error) {
	if !wellFormed(token) {
		return "", 0, fmt.Errorf("resolve token: %w", ErrNotFound)
	}
	want := hashToken(token)
	var (
		got     []byte
		id      string
		access  string
		revoked sql.NullString
	)
	err := s.r.QueryRowContext(ctx, `SELECT hash, design_id, access, revoked_at FROM tokens WHERE hash = ?`, want).
		Scan(&got, &id, &access, &revoked)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", 0, fmt.Errorf("resolve token: %w", ErrNotFound)
	case err != nil:
		return "", 0, fmt.Errorf("resolve token: %w", err)
	}
	if subtle.ConstantTimeCompare(got, want) != 1 || revoked.Valid {
		return "", 0, fmt.Errorf("resolve token: %w", ErrNotFound)
	}
	a, err := accessFromDB(access)
	if err != nil {
		return "", 0, fmt.Errorf("resolve token for %s: %w", id, err)
	}
	return id, a, nil
}

// ViewToken returns the view token of design id to the holder of its edit token, by opening the
// view token sealed at Create. A token that is not a live edit token of id gives ErrNotFound.
func (s *Store) ViewToken(ctx context.Context, id, editToken string) (string, error) {
	gotID, access, err := s.Resolve(ctx, editToken)
	if err != nil {
		return "", fmt.Errorf("view token of %s: %w", id, err)
	}
	if gotID != id || access != EditAccess {
		return "", fmt.Errorf("view token of %s: %w", id, ErrNotFound)
	}
	var sealed []byte
	err = s.r.QueryRowContext(ctx, `SELECT sealed_view FROM designs WHERE id = ?`, id).Scan(&sealed)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", fmt.Errorf("view token of %s: %w", id, ErrNotFound)
	case err != nil:
		return "", fmt.Errorf("view token of %s: %w", id, err)
	}
	view, err := openView(id, editToken, sealed)
	if err != nil {
		return "", fmt.Errorf("view token of %s: %w", id, err)
	}
	return view, nil
}

// sealKey derives the key that seals a design's view token from its edit token. The edit token
// carries 130 random bits, so one hash is enough; nothing stored reveals the key.
func sealKey(editToken string) []byte {
	sum := sha256.Sum256([]byte("dynaloom/view-seal\x00" + editToken))
	return sum[:]
}

func viewAEAD(editToken string) (cipher.AEAD, error) {
	block, err := aes.NewCipher(sealKey(editToken))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// sealView encrypts the view token under the edit token, bound to the design id; it returns
// nonce || ciphertext.
func sealView(id, editToken, viewToken string) ([]byte, error) {
	aead, err := viewAEAD(editToken)
	if err != nil {
		return nil, fmt.Errorf("seal view token: %w", err)
	}
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce) // never fails (crypto/rand, Go ≥ 1.24)
	return aead.Seal(nonce, nonce, []byte(viewToken), []byte(id)), nil
}

func openView(id, editToken string, sealed []byte) (string, error) {
	aead, err := viewAEAD(editToken)
	if err != nil {
		return "", fmt.Errorf("open sealed view token: %w", err)
	}
	n := aead.NonceSize()
	if len(sealed) < n+aead.Overhead() {
		return "", errors.New("sealed view token is truncated")
	}
	plain, err := aead.Open(nil, sealed[:n], sealed[n:], []byte(id))
	if err != nil {
		return "", fmt.Errorf("open sealed view token: %w", ErrNotFound)
	}
	return string(plain), nil
}
