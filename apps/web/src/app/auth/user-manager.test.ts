import { describe, expect, it } from 'vitest';
import { createUserManagerSettings } from './user-manager.ts';

const config = {
  authority: 'http://localhost:4000/oidc',
  clientId: 'pathology-web',
  scope: 'openid profile email offline_access',
  maxCaseImages: 200,
};

describe('createUserManagerSettings', () => {
  it('points every return address at this origin', () => {
    const settings = createUserManagerSettings(config, 'http://localhost:4000');
    expect(settings).toMatchObject({
      authority: 'http://localhost:4000/oidc',
      client_id: 'pathology-web',
      scope: 'openid profile email offline_access',
      response_type: 'code',
      redirect_uri: 'http://localhost:4000/auth/callback',
      popup_redirect_uri: 'http://localhost:4000/auth/popup-callback',
      silent_redirect_uri: 'http://localhost:4000/auth/silent-callback',
      post_logout_redirect_uri: 'http://localhost:4000/signed-out',
      automaticSilentRenew: true,
    });
    expect(settings).not.toHaveProperty('resource');
  });

  it('asks for the API as a resource when the server names one', () => {
    const settings = createUserManagerSettings(
      { ...config, resource: 'https://slides.example/api' },
      'https://slides.example',
    );
    expect(settings.resource).toBe('https://slides.example/api');
  });
});
