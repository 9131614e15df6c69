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
	"sync"
	"time"
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

// Tokens are the plaintext capability tokens of a design. Only Create and RotateToken return them;
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

// Resolve returns the design and the access a token grants. Unknown, malformed, revoked and
// expired tokens all give ErrNotFound. The token itself never appears in an error.
//
// Every request resolves its token, so what a live token resolves to is kept in memory
// (tokenCache) rather than read again each time.
func (s *Store) Resolve(ctx context.Context, token string) (string, Access, error) {
	if !wellFormed(token) {
		return "", 0, fmt.Errorf("resolve token: %w", ErrNotFound)
	}
	want := sha256.Sum256([]byte(token))
	e, ok, gen := s.tokens.get(want)
	if !ok {
		var err error
		if e, err = s.readToken(ctx, want[:]); err != nil {
			return "", 0, err
		}
		s.tokens.put(want, e, gen)
	}
	if !e.expires.IsZero() && !s.tokens.now().Before(e.expires) {
		return "", 0, fmt.Errorf("resolve token: %w", ErrNotFound)
	}
	return e.id, e.access, nil
}

// readToken reads what the token hashed to want grants, refusing a revoked one.
func (s *Store) readToken(ctx context.Context, want []byte) (tokenEntry, error) {
	var (
		got              []byte
		id               string
		access           string
		revoked, expires sql.NullString
	)
	err := s.r.QueryRowContext(ctx, `SELECT hash, design_id, access, revoked_at, expires_at FROM tokens WHERE hash = ?`, want).
		Scan(&got, &id, &access, &revoked, &expires)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return tokenEntry{}, fmt.Errorf("resolve token: %w", ErrNotFound)
	case err != nil:
		return tokenEntry{}, fmt.Errorf("resolve token: %w", err)
	}
	if subtle.ConstantTimeCompare(got, want) != 1 || revoked.Valid {
		return tokenEntry{}, fmt.Errorf("resolve token: %w", ErrNotFound)
	}
	e := tokenEntry{id: id}
	if expires.Valid {
		if e.expires, err = parseTime(expires.String); err != nil {
			return tokenEntry{}, fmt.Errorf("resolve token for %s: %w", id, err)
		}
	}
	if e.access, err = accessFromDB(access); err != nil {
		return tokenEntry{}, fmt.Errorf("resolve token for %s: %w", id, err)
	}
	return e, nil
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

// RotateToken replaces the view or the edit token of design id with a fresh one, like those Create
// issues, and revokes the old one, which resolves to nothing from then on. editToken must be a live
// edit token of id; anything else gives ErrNotFound. It returns both live tokens. Rotating the edit
// token keeps the view token and seals it again under the new edit token; a new view token keeps
// its predecessor's expiry if that has not passed yet, so replacing a link never widens access.
func (s *Store) RotateToken(ctx context.Context, id, editToken string, which Access) (Tokens, error) {
	if which != ViewAccess && which != EditAccess {
		return Tokens{}, fmt.Errorf("rotate token of %s: cannot rotate %v", id, which)
	}
	var out Tokens
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		view, err := openViewTx(ctx, tx, id, editToken)
		if err != nil {
			return err
		}
		now := time.Now().UTC()
		out = Tokens{Edit: editToken, View: view}
		var expires sql.NullString
		switch which {
		case EditAccess:
			out.Edit = rand.Text()
		case ViewAccess:
			out.View = rand.Text()
			if err := tx.QueryRowContext(ctx, `SELECT expires_at FROM tokens WHERE hash = ?`, hashToken(view)).Scan(&expires); err != nil {
				return fmt.Errorf("read the view token's expiry: %w", err)
			}
			if expires.Valid {
				at, err := parseTime(expires.String)
				if err != nil {
					return err
				}
				if !now.Before(at) {
					expires = sql.NullString{}
				}
			}
		}
		sealed, err := sealView(id, out.Edit, out.View)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE designs SET sealed_view = ? WHERE id = ?`, sealed, id); err != nil {
			return err
		}
		fresh := out.Edit
		if which == ViewAccess {
			fresh = out.View
		}
		at := formatTime(now)
		if _, err := tx.ExecContext(ctx,
			`UPDATE tokens SET revoked_at = ? WHERE design_id = ? AND access = ? AND revoked_at IS NULL`,
			at, id, which.String()); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO tokens (hash, design_id, access, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
			hashToken(fresh), id, which.String(), at, expires)
		return err
	})
	// Even when the commit failed: whether it took effect is then unknown.
	s.tokens.forget(id)
	if err != nil {
		return Tokens{}, fmt.Errorf("rotate %v token of %s: %w", which, id, err)
	}
	return out, nil
}

// SetViewExpiry sets when the view token of design id stops opening it; the zero time means never.
// A time already past closes the view link at once; a later call can open it again. editToken must
// be a live edit token of id, as for RotateToken. The edit token never expires.
func (s *Store) SetViewExpiry(ctx context.Context, id, editToken string, at time.Time) error {
	var expires sql.NullString
	if !at.IsZero() {
		expires = sql.NullString{String: formatTime(at), Valid: true}
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := openViewTx(ctx, tx, id, editToken); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`UPDATE tokens SET expires_at = ? WHERE design_id = ? AND access = 'view' AND revoked_at IS NULL`, expires, id)
		return err
	})
	s.tokens.forget(id)
	if err != nil {
		return fmt.Errorf("set view link expiry of %s: %w", id, err)
	}
	return nil
}

// ViewExpiry returns when the view token of design id stops opening it (possibly already past),
// or the zero time if it never does.
func (s *Store) ViewExpiry(ctx context.Context, id string) (time.Time, error) {
	var expires sql.NullString
	err := s.r.QueryRowContext(ctx,
		`SELECT expires_at FROM tokens WHERE design_id = ? AND access = 'view' AND revoked_at IS NULL`, id).Scan(&expires)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, fmt.Errorf("view link expiry of %s: %w", id, ErrNotFound)
	case err != nil:
		return time.Time{}, fmt.Errorf("view link expiry of %s: %w", id, err)
	case !expires.Valid:
		return time.Time{}, nil
	}
	at, err := parseTime(expires.String)
	if err != nil {
		return time.Time{}, fmt.Errorf("view link expiry of %s: %w", id, err)
	}
	return at, nil
}

// openViewTx checks, inside a write transaction, that editToken is a live edit token of design id,
// and returns the design's view token opened with it. Anything else gives ErrNotFound.
func openViewTx(ctx context.Context, tx *sql.Tx, id, editToken string) (string, error) {
	if !wellFormed(editToken) {
		return "", ErrNotFound
	}
	var (
		design, access string
		revoked        sql.NullString
	)
	err := tx.QueryRowContext(ctx, `SELECT design_id, access, revoked_at FROM tokens WHERE hash = ?`, hashToken(editToken)).
		Scan(&design, &access, &revoked)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", ErrNotFound
	case err != nil:
		return "", err
	}
	if design != id || access != EditAccess.String() || revoked.Valid {
		return "", ErrNotFound
	}
	var sealed []byte
	if err := tx.QueryRowContext(ctx, `SELECT sealed_view FROM designs WHERE id = ?`, id).Scan(&sealed); err != nil {
		return "", err
	}
	return openView(id, editToken, sealed)
}

// tokenCache keeps what live tokens resolve to: the design, the access and the expiry, by the
// token's hash. Unknown, revoked and expired tokens are not kept, so they are read every time.
//
// RotateToken and SetViewExpiry, the only writes that change what a stored token grants, forget
// the design's entries once they have written, and a read that was under way meanwhile does not
// put back what it read (gen): from the moment they return, a replaced token resolves to nothing
// and an expiry holds. Another Store on the same file (another process) cannot tell this one, so
// an entry is also read again once it is tokenRecheck old: that is how long a token replaced or
// expired there may still open the design here.
type tokenCache struct {
	mu     sync.Mutex
	gen    uint64 // counts forget calls
	byHash map[[sha256.Size]byte]tokenEntry
	now    func() time.Time
}

// tokenEntry is what a live token grants, and when that was read.
type tokenEntry struct {
	id      string
	access  Access
	expires time.Time // zero: never
	read    time.Time
}

const (
	// tokenRecheck is how long a token's entry is used before the token is read again.
	tokenRecheck = time.Second
	// tokensCached bounds the entries: past it the cache starts afresh.
	tokensCached = 10_000
)

func newTokenCache() *tokenCache {
	return &tokenCache{byHash: map[[sha256.Size]byte]tokenEntry{}, now: time.Now}
}

// get returns the entry of a token's hash if it is fresh, and the generation to hand to put
// when it is not.
func (c *tokenCache) get(hash [sha256.Size]byte) (tokenEntry, bool, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byHash[hash]
	if ok && c.now().Sub(e.read) < tokenRecheck {
		return e, true, c.gen
	}
	return tokenEntry{}, false, c.gen
}

// put keeps e, read since get returned gen, unless a forget came in between.
func (c *tokenCache) put(hash [sha256.Size]byte, e tokenEntry, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(c.byHash) >= tokensCached {
		clear(c.byHash)
	}
	e.read = c.now()
	c.byHash[hash] = e
}

// forget drops every entry of design id.
func (c *tokenCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for h, e := range c.byHash {
		if e.id == id {
			delete(c.byHash, h)
		}
	}
}
