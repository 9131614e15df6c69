package storage

import (
	"context"
	"crypto/sha256"
	"errors"
	"testing"
	"time"
)

func TestRotateViewToken_oldOneIsUnknownAndTheNewOneViews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	rec, tok, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.RotateToken(ctx, rec.ID, tok.Edit, ViewAccess)
	if err != nil {
		t.Fatalf("RotateToken(view): %v", err)
	}
	if got.Edit != tok.Edit {
		t.Errorf("rotating the view token changed the edit token")
	}
	if got.View == tok.View || !wellFormed(got.View) {
		t.Fatalf("new view token %q is not a fresh token", got.View)
	}
	if _, _, err := s.Resolve(ctx, tok.View); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resolve(old view token) error = %v, want ErrNotFound", err)
	}
	id, access, err := s.Resolve(ctx, got.View)
	if err != nil || id != rec.ID || access != ViewAccess {
		t.Errorf("Resolve(new view token) = %q, %v, %v; want %q, view", id, access, err, rec.ID)
	}
	if view, err := s.ViewToken(ctx, rec.ID, tok.Edit); err != nil || view != got.View {
		t.Errorf("ViewToken after the rotation = %q, %v; want the new view token", view, err)
	}
	if id, access, err := s.Resolve(ctx, tok.Edit); err != nil || id != rec.ID || access != EditAccess {
		t.Errorf("Resolve(edit token) after a view rotation = %q, %v, %v", id, access, err)
	}
}

func TestRotateEditToken_viewTokenStaysAndOpensUnderTheNewEditToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	rec, tok, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.RotateToken(ctx, rec.ID, tok.Edit, EditAccess)
	if err != nil {
		t.Fatalf("RotateToken(edit): %v", err)
	}
	if got.View != tok.View {
		t.Errorf("rotating the edit token changed the view token")
	}
	if got.Edit == tok.Edit || !wellFormed(got.Edit) {
		t.Fatalf("new edit token %q is not a fresh token", got.Edit)
	}
	if _, _, err := s.Resolve(ctx, tok.Edit); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resolve(old edit token) error = %v, want ErrNotFound", err)
	}
	if _, err := s.ViewToken(ctx, rec.ID, tok.Edit); !errors.Is(err, ErrNotFound) {
		t.Errorf("ViewToken(old edit token) error = %v, want ErrNotFound", err)
	}
	if id, access, err := s.Resolve(ctx, got.Edit); err != nil || id != rec.ID || access != EditAccess {
		t.Errorf("Resolve(new edit token) = %q, %v, %v", id, access, err)
	}
	if id, access, err := s.Resolve(ctx, tok.View); err != nil || id != rec.ID || access != ViewAccess {
		t.Errorf("Resolve(view token) after an edit rotation = %q, %v, %v", id, access, err)
	}
	// The sealed view token must open under the new edit token, also after a restart.
	s.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if view, err := s2.ViewToken(ctx, rec.ID, got.Edit); err != nil || view != tok.View {
		t.Errorf("ViewToken(new edit token) after reopening = %q, %v; want the unchanged view token", view, err)
	}
	// The old edit token can rotate nothing any more.
	if _, err := s2.RotateToken(ctx, rec.ID, tok.Edit, ViewAccess); !errors.Is(err, ErrNotFound) {
		t.Errorf("RotateToken with the revoked edit token error = %v, want ErrNotFound", err)
	}
}

func TestRotateToken_needsALiveEditTokenOfThatDesign(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	rec, tok, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	other, otherTok, err := s.Create(ctx, newDesign(t, "Other"), "bob")
	if err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"view token":              func() error { _, err := s.RotateToken(ctx, rec.ID, tok.View, ViewAccess); return err },
		"another design's token":  func() error { _, err := s.RotateToken(ctx, rec.ID, otherTok.Edit, ViewAccess); return err },
		"malformed token":         func() error { _, err := s.RotateToken(ctx, rec.ID, "x", EditAccess); return err },
		"expiry with view token":  func() error { return s.SetViewExpiry(ctx, rec.ID, tok.View, time.Time{}) },
		"expiry with other token": func() error { return s.SetViewExpiry(ctx, rec.ID, otherTok.Edit, time.Time{}) },
	} {
		if err := call(); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: error = %v, want ErrNotFound", name, err)
		}
	}
	if _, err := s.RotateToken(ctx, rec.ID, tok.Edit, Access(9)); err == nil {
		t.Error("RotateToken accepted an unknown kind of access")
	}
	// Nothing above changed either design's tokens.
	for _, c := range []struct {
		id  string
		tok Tokens
	}{{rec.ID, tok}, {other.ID, otherTok}} {
		for _, token := range []string{c.tok.Edit, c.tok.View} {
			if id, _, err := s.Resolve(ctx, token); err != nil || id != c.id {
				t.Errorf("after refused calls a token of %s resolves to %q, %v", c.id, id, err)
			}
		}
	}
}

func TestViewExpiry_expiredViewTokenIsUnknownAndEditTokenNeverExpires(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	rec, tok, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if at, err := s.ViewExpiry(ctx, rec.ID); err != nil || !at.IsZero() {
		t.Fatalf("a new view link expires at %v (%v), want never", at, err)
	}

	later := time.Now().Add(time.Hour).UTC().Truncate(time.Microsecond)
	if err := s.SetViewExpiry(ctx, rec.ID, tok.Edit, later); err != nil {
		t.Fatal(err)
	}
	if at, err := s.ViewExpiry(ctx, rec.ID); err != nil || !at.Equal(later) {
		t.Fatalf("ViewExpiry = %v, %v; want %v", at, err, later)
	}
	if _, _, err := s.Resolve(ctx, tok.View); err != nil {
		t.Fatalf("a view token expiring in an hour does not resolve: %v", err)
	}

	if err := s.SetViewExpiry(ctx, rec.ID, tok.Edit, time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Resolve(ctx, tok.View); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resolve(expired view token) error = %v, want ErrNotFound", err)
	}
	if _, access, err := s.Resolve(ctx, tok.Edit); err != nil || access != EditAccess {
		t.Errorf("the edit token stopped resolving when the view link expired: %v", err)
	}
	// The edit holder can still read the expired link, and a new view link starts without the
	// past expiry.
	if view, err := s.ViewToken(ctx, rec.ID, tok.Edit); err != nil || view != tok.View {
		t.Errorf("ViewToken of an expired view link = %q, %v", view, err)
	}

	if err := s.SetViewExpiry(ctx, rec.ID, tok.Edit, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Resolve(ctx, tok.View); err != nil {
		t.Errorf("after choosing never, the view token does not resolve: %v", err)
	}
}

func TestRotateViewToken_keepsAFutureExpiryAndDropsAPastOne(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	rec, tok, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Microsecond)
	if err := s.SetViewExpiry(ctx, rec.ID, tok.Edit, later); err != nil {
		t.Fatal(err)
	}
	rotated, err := s.RotateToken(ctx, rec.ID, tok.Edit, ViewAccess)
	if err != nil {
		t.Fatal(err)
	}
	if at, err := s.ViewExpiry(ctx, rec.ID); err != nil || !at.Equal(later) {
		t.Errorf("the new view link expires at %v (%v), want the old link's %v", at, err, later)
	}

	if err := s.SetViewExpiry(ctx, rec.ID, tok.Edit, time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	again, err := s.RotateToken(ctx, rec.ID, tok.Edit, ViewAccess)
	if err != nil {
		t.Fatal(err)
	}
	if at, err := s.ViewExpiry(ctx, rec.ID); err != nil || !at.IsZero() {
		t.Errorf("a view link made after the old one expired expires at %v (%v), want never", at, err)
	}
	if _, _, err := s.Resolve(ctx, again.View); err != nil {
		t.Errorf("the view link made after expiry does not resolve: %v", err)
	}
	if _, _, err := s.Resolve(ctx, rotated.View); !errors.Is(err, ErrNotFound) {
		t.Errorf("the replaced view link still resolves: %v", err)
	}
}

// A token resolved once is kept in memory; every change of what a token grants must still apply
// from the moment the call that made it returns.
func TestResolve_keptTokensFollowRotationAndExpiry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	clock := time.Now()
	s.tokens.now = func() time.Time { return clock }
	rec, tok, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	other, otherTok, err := s.Create(ctx, newDesign(t, "Other"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	resolves := func(token string, want Access) {
		t.Helper()
		if id, access, err := s.Resolve(ctx, token); err != nil || id != rec.ID || access != want {
			t.Fatalf("Resolve = %q, %v, %v; want %s, %v", id, access, err, rec.ID, want)
		}
	}
	unknown := func(token, why string) {
		t.Helper()
		if _, _, err := s.Resolve(ctx, token); !errors.Is(err, ErrNotFound) {
			t.Fatalf("%s: Resolve error = %v, want ErrNotFound", why, err)
		}
	}
	resolves(tok.Edit, EditAccess)
	resolves(tok.View, ViewAccess)
	if _, _, err := s.Resolve(ctx, otherTok.View); err != nil {
		t.Fatal(err)
	}
	if n := len(s.tokens.byHash); n != 3 {
		t.Fatalf("%d tokens kept after three resolved, want 3", n)
	}

	rotated, err := s.RotateToken(ctx, rec.ID, tok.Edit, ViewAccess)
	if err != nil {
		t.Fatal(err)
	}
	unknown(tok.View, "the view token replaced while it was kept")
	resolves(rotated.View, ViewAccess)
	if id, _, err := s.Resolve(ctx, otherTok.View); err != nil || id != other.ID {
		t.Fatalf("another design's token after a rotation: %q, %v", id, err)
	}

	resolves(tok.Edit, EditAccess)
	again, err := s.RotateToken(ctx, rec.ID, tok.Edit, EditAccess)
	if err != nil {
		t.Fatal(err)
	}
	unknown(tok.Edit, "the edit token replaced while it was kept")
	resolves(again.Edit, EditAccess)

	// Closing the view link applies at once; opening it again too.
	resolves(rotated.View, ViewAccess)
	if err := s.SetViewExpiry(ctx, rec.ID, again.Edit, clock.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	unknown(rotated.View, "the view link closed while its token was kept")
	if err := s.SetViewExpiry(ctx, rec.ID, again.Edit, time.Time{}); err != nil {
		t.Fatal(err)
	}
	resolves(rotated.View, ViewAccess)

	// An expiry that passes while the token is kept.
	if err := s.SetViewExpiry(ctx, rec.ID, again.Edit, clock.Add(tokenRecheck/4)); err != nil {
		t.Fatal(err)
	}
	resolves(rotated.View, ViewAccess)
	clock = clock.Add(tokenRecheck / 2)
	if _, ok, _ := s.tokens.get(sha256.Sum256([]byte(rotated.View))); !ok {
		t.Fatal("the view token is no longer kept: this test no longer checks a kept token's expiry")
	}
	unknown(rotated.View, "the view link expired while its token was kept")
}

// Another Store on the same file cannot tell this one that it replaced a token: the token is read
// again once its entry is tokenRecheck old.
func TestResolve_aTokenReplacedByAnotherStoreStopsWithinTheRecheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s1, path := openTemp(t)
	clock := time.Now()
	s1.tokens.now = func() time.Time { return clock }
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	rec, tok, err := s1.Create(ctx, newDesign(t, "Shared"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s1.Resolve(ctx, tok.View); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.RotateToken(ctx, rec.ID, tok.Edit, ViewAccess); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(tokenRecheck)
	if _, _, err := s1.Resolve(ctx, tok.View); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a view token replaced by another store still resolves %v later: %v", tokenRecheck, err)
	}
}
