import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, SETTINGS_DOC, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('starts with nothing set: embedded database, demo data, built-in sign-in', () => {
    const config = loadConfig({}, []);
    expect(config).toMatchObject({
      role: 'all',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      seedDemo: true,
      maxCaseImages: 200,
      oidc: {
        issuer: 'http://localhost:3000/oidc',
        clientId: 'pathology-web',
        audience: 'http://localhost:3000/api',
        builtIn: true,
      },
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('stores files under DATA_DIR/blobs unless STORAGE_URL names a folder or an S3 bucket', () => {
    expect(loadConfig({ DATA_DIR: '/srv/slides' }, []).storage.location).toEqual({
      kind: 'filesystem',
      root: '/srv/slides/blobs',
    });
    const s3 = loadConfig(
      { STORAGE_URL: 's3://lab-slides/prod', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' },
      [],
    );
    expect(s3.storage).toEqual({
      location: { kind: 's3', bucket: 'lab-slides', prefix: 'prod' },
      s3: { endpoint: 'http://minio:9000', forcePathStyle: true },
    });
    expect(() => loadConfig({ STORAGE_URL: 's3://No_Such' }, [])).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_URL: 'ftp://host/x' }, [])).toThrow(/only s3:\/\/ and file:\/\//);
  });

  it('reads every setting from the environment', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        PUBLIC_URL: 'https://slides.example.org/',
        DATA_DIR: '/srv/slides',
        DATABASE_URL: 'postgres://u:p@db:5432/slides',
        MAX_CASE_IMAGES: '500',
        OIDC_ISSUER: 'https://id.example.org/realms/lab',
        OIDC_CLIENT_ID: 'slides',
        OIDC_AUDIENCE: 'slides-api',
      },
      ['--role', 'api'],
    );
    expect(config).toMatchObject({
      role: 'api',
      port: 8080,
      publicUrl: 'https://slides.example.org',
      dataDir: '/srv/slides',
      seedDemo: false,
      maxCaseImages: 500,
      oidc: { issuer: 'https://id.example.org/realms/lab', clientId: 'slides', audience: 'slides-api', builtIn: false },
    });
  });

  it.each([
    [{}, ['--role', 'api'], 'Env. variable is required: DATABASE_URL'],
    [{}, ['--role=worker'], 'Env. variable is required: DATABASE_URL'],
    [{ OIDC_ISSUER: 'https://id.example.org' }, [], 'Env. variable is required: OIDC_CLIENT_ID'],
  ])('stops on a missing required setting (%j %j)', (env, argv, message) => {
    expect(() => loadConfig(env, argv)).toThrow(new ConfigError(message));
  });

  it('names an invalid value', () => {
    expect(() => loadConfig({ PORT: 'eighty' }, [])).toThrow(/Invalid setting PORT/);
    expect(() => loadConfig({}, ['--role', 'both'])).toThrow('--role must be one of api, worker, all');
  });

  it('believes forwarded client addresses only from the proxies TRUST_PROXY names, by default one on loopback', () => {
    expect(loadConfig({}, []).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,uniquelocal' }, []).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'uniquelocal',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'false' }, []).trustProxy).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' }, [])).toThrow(/TRUST_PROXY: "proxy.internal"/);
  });

  it('lets no other origin read DICOMweb unless DICOMWEB_CORS_ORIGINS names it', () => {
    expect(loadConfig({}, []).dicomwebCorsOrigins).toEqual([]);
    expect(
      loadConfig({ DICOMWEB_CORS_ORIGINS: 'https://slim.example.org, http://localhost:8008/' }, []).dicomwebCorsOrigins,
    ).toEqual(['https://slim.example.org', 'http://localhost:8008']);
    expect(() => loadConfig({ DICOMWEB_CORS_ORIGINS: 'slim.example.org' }, [])).toThrow(/DICOMWEB_CORS_ORIGINS/);
    expect(() => loadConfig({ DICOMWEB_CORS_ORIGINS: 'https://a.test/viewer' }, [])).toThrow(/DICOMWEB_CORS_ORIGINS/);
  });

  it('builds pyramids at niceness 10 unless CONVERSION_NICENESS says otherwise (0–19)', () => {
    expect(loadConfig({}, []).conversionNiceness).toBe(10);
    expect(loadConfig({ CONVERSION_NICENESS: '0' }, []).conversionNiceness).toBe(0);
    expect(() => loadConfig({ CONVERSION_NICENESS: '20' }, [])).toThrow(/CONVERSION_NICENESS/);
  });

  it('hashes passwords at scrypt N=32768 unless PASSWORD_SCRYPT_N says otherwise (a power of two, 1024 or more)', () => {
    expect(loadConfig({}, []).passwordScryptN).toBe(32768);
    expect(loadConfig({ PASSWORD_SCRYPT_N: '1024' }, []).passwordScryptN).toBe(1024);
    for (const value of ['1000', '512', '2097152']) {
      expect(() => loadConfig({ PASSWORD_SCRYPT_N: value }, [])).toThrow(/PASSWORD_SCRYPT_N/);
    }
  });

  it('takes a web address for the help pages, and nothing else', () => {
    expect(loadConfig({}, []).helpUrl).toBeUndefined();
    expect(loadConfig({ HELP_URL: 'https://help.hospital.example/pathology' }, []).helpUrl).toBe(
      'https://help.hospital.example/pathology',
    );
    expect(() => loadConfig({ HELP_URL: 'javascript:alert(1)' }, [])).toThrow(/HELP_URL/);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }, []).databaseUrl).toBeUndefined();
  });

  it('documents every setting in the README table', () => {
    const readme = fs.readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
    for (const name of Object.keys(SETTINGS_DOC)) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });
});
